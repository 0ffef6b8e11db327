package org.llmplatform.support.blob;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.apache.commons.codec.digest.DigestUtils;

/**
 * {@code size} pseudo-random bytes made as they are read (nothing held but a small block), with the SHA-256
 * of what was read so far: the same seed and size always yield the same bytes and so the same digest.
 */
public final class GeneratedStream extends InputStream {

    private final SplittableRandom random;
    private final long size;
    private final MessageDigest sha256 = DigestUtils.getSha256Digest();
    private final byte[] block = new byte[8192];
    private int blockPosition = block.length;
    private long position;
    private final long failAt;

    private GeneratedStream(long size, long seed, long failAt) {
        this.random = new SplittableRandom(seed);
        this.size = size;
        this.failAt = failAt;
    }

    public static GeneratedStream of(long size, long seed) {
        return new GeneratedStream(size, seed, -1);
    }

    /** A stream that breaks with an IOException once {@code failAt} bytes were read. */
    public static GeneratedStream failingAt(long size, long seed, long failAt) {
        return new GeneratedStream(size, seed, failAt);
    }

    /** The digest of the bytes {@link #of} yields for this size and seed. */
    public static String digestOf(long size, long seed) {
        GeneratedStream stream = of(size, seed);
        try {
            stream.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return stream.digest();
    }

    public long position() {
        return position;
    }

    /** The hex SHA-256 of the bytes read so far (call once, at the end). */
    public String digest() {
        return HexFormat.of().formatHex(sha256.digest());
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (position >= size) {
            return -1;
        }
        if (failAt >= 0 && position >= failAt) {
            throw new IOException("the source broke off after " + position + " bytes");
        }
        if (blockPosition == block.length) {
            random.nextBytes(block);
            blockPosition = 0;
        }
        int n = (int) Math.min(Math.min(length, block.length - blockPosition), size - position);
        if (failAt >= 0) {
            n = (int) Math.min(n, Math.max(1, failAt - position));
        }
        System.arraycopy(block, blockPosition, buffer, offset, n);
        sha256.update(block, blockPosition, n);
        blockPosition += n;
        position += n;
        return n;
    }
}
