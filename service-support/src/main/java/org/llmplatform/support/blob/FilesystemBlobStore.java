package org.llmplatform.support.blob;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.stream.Stream;
import org.llmplatform.model.events.BlobReference;
import org.apache.commons.codec.digest.DigestUtils;

/**
 * Blobs as files {@code <root>/sha256/<first two hex digits>/<digest>} (the laptop default). Bytes stream into
 * a temporary file beside the blobs while their digest is computed, and the file is moved into place only
 * once complete, so a reader never sees half a blob.
 */
public final class FilesystemBlobStore extends WorkerBlobStore {

    private static final String PARTIAL = ".partial";

    private final Path root;

    public FilesystemBlobStore(Path root) {
        this.root = root.toAbsolutePath();
    }

    @Override
    protected BlobReference store(InputStream content) throws IOException {
        Path incoming = root.resolve("incoming");
        Files.createDirectories(incoming);
        Path partial = Files.createTempFile(incoming, "blob-", PARTIAL);
        try {
            MessageDigest sha256 = DigestUtils.getSha256Digest();
            long byteCount;
            try (OutputStream out = new DigestOutputStream(Files.newOutputStream(partial), sha256)) {
                byteCount = content.transferTo(out);
            }
            String digest = ContentAddress.hex(sha256);
            Path target = pathOf(digest);
            if (!Files.exists(target)) {
                Files.createDirectories(target.getParent());
                moveIntoPlace(partial, target);
            }
            return ContentAddress.reference(digest, byteCount);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    @Override
    protected BlobReference store(Path file) throws IOException {
        try (InputStream content = Files.newInputStream(file)) {
            return store(content);
        }
    }

    @Override
    protected InputStream read(String digest) throws IOException {
        try {
            return Files.newInputStream(pathOf(digest));
        } catch (NoSuchFileException missing) {
            return null;
        }
    }

    @Override
    protected boolean contains(String digest) {
        return Files.isRegularFile(pathOf(digest));
    }

    @Override
    protected void remove(String digest) throws IOException {
        Files.deleteIfExists(pathOf(digest));
    }

    @Override
    protected Stream<BlobReference> listing(String keyPrefix, String digestPrefix) throws IOException {
        Path folder = root.resolve(keyPrefix.substring(0, keyPrefix.lastIndexOf('/')));
        if (!Files.isDirectory(folder)) {
            return Stream.empty();
        }
        return Files.walk(folder)
                .filter(Files::isRegularFile)
                .filter(path -> {
                    String digest = ContentAddress.digestInKey(path.getFileName().toString());
                    return digest != null && digest.startsWith(digestPrefix);
                })
                .map(path -> ContentAddress.reference(path.getFileName().toString(), sizeOf(path)));
    }

    private static long sizeOf(Path path) {
        try {
            return Files.size(path);
        } catch (IOException e) {
            return -1;
        }
    }

    private static void moveIntoPlace(Path partial, Path target) throws IOException {
        try {
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException notAtomic) {
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private Path pathOf(String digest) {
        return root.resolve(ContentAddress.key(digest));
    }
}
