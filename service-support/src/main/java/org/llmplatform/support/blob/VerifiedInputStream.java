package org.llmplatform.support.blob;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import org.apache.commons.codec.digest.DigestUtils;

/** Passes a blob's bytes through and fails the read that reaches the end when they do not match its digest. */
final class VerifiedInputStream extends FilterInputStream {

    private final String expected;
    private final String uri;
    private final MessageDigest digest = DigestUtils.getSha256Digest();
    private boolean verified;

    VerifiedInputStream(InputStream in, String expected, String uri) {
        super(in);
        this.expected = expected;
        this.uri = uri;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b < 0) {
            verify();
        } else {
            digest.update((byte) b);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = in.read(buffer, offset, length);
        if (n < 0) {
            verify();
        } else {
            digest.update(buffer, offset, n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // Skipped bytes would escape the digest: they are read instead.
        byte[] buffer = new byte[(int) Math.min(Math.max(n, 0), 8192)];
        long skipped = 0;
        while (skipped < n) {
            int read = read(buffer, 0, (int) Math.min(buffer.length, n - skipped));
            if (read < 0) {
                break;
            }
            skipped += read;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    private void verify() throws IOException {
        if (!verified) {
            verified = true;
            if (!ContentAddress.hex(digest).equals(expected)) {
                throw new CorruptBlobException("blob " + uri + " is corrupt: its bytes no longer match the digest");
            }
        }
    }

    /** Thrown through the stream when the stored bytes do not match the reference's digest. */
    static final class CorruptBlobException extends IOException {
        CorruptBlobException(String message) {
            super(message);
        }
    }
}
