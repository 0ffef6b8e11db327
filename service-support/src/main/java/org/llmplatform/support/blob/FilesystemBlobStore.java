package org.llmplatform.support.blob;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.regex.Pattern;
import org.apache.commons.codec.digest.DigestUtils;
import org.llmplatform.model.events.BlobReference;

/**
 * Blobs as files {@code <root>/sha256/<first two hex digits>/<digest>}, written to a temporary file and
 * moved into place so a reader never sees half a blob. File work runs on the worker pool.
 */
@ApplicationScoped
public class FilesystemBlobStore implements BlobStore {

    static final String URI_PREFIX = "blob:sha256:";
    private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{64}");

    private final Path root;

    public FilesystemBlobStore(BlobConfig config) {
        this.root = config.root().toAbsolutePath();
    }

    @Override
    public Uni<BlobReference> put(byte[] content) {
        return Uni.createFrom().item(() -> write(content)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    @Override
    public Uni<byte[]> get(BlobReference reference) {
        return Uni.createFrom().item(() -> read(reference)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private BlobReference write(byte[] content) {
        String digest = DigestUtils.sha256Hex(content);
        Path target = pathOf(digest);
        try {
            if (!Files.exists(target)) {
                Files.createDirectories(target.getParent());
                Path partial = Files.createTempFile(target.getParent(), digest, ".partial");
                Files.write(partial, content);
                moveIntoPlace(partial, target);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not store blob " + digest, e);
        }
        return new BlobReference(URI_PREFIX + digest, digest, content.length);
    }

    private static void moveIntoPlace(Path partial, Path target) throws IOException {
        try {
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException notAtomic) {
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private byte[] read(BlobReference reference) {
        String digest = digestOf(reference);
        byte[] content;
        try {
            content = Files.readAllBytes(pathOf(digest));
        } catch (NoSuchFileException missing) {
            throw new BlobNotFoundException("no blob " + reference.uri());
        } catch (IOException e) {
            throw new UncheckedIOException("could not read blob " + digest, e);
        }
        if (!DigestUtils.sha256Hex(content).equals(digest)) {
            throw new BlobNotFoundException("blob " + reference.uri() + " is corrupt: its bytes no longer match the digest");
        }
        return content;
    }

    private static String digestOf(BlobReference reference) {
        String uri = reference.uri();
        String digest = uri != null && uri.startsWith(URI_PREFIX) ? uri.substring(URI_PREFIX.length()) : reference.sha256();
        if (digest == null || !DIGEST.matcher(digest).matches()) {
            throw new BlobNotFoundException("not a blob reference: " + uri);
        }
        return digest;
    }

    private Path pathOf(String digest) {
        return root.resolve("sha256").resolve(digest.substring(0, 2)).resolve(digest);
    }
}
