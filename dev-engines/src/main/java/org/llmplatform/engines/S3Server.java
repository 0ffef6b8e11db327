package org.llmplatform.engines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3 API server on localhost (S3Proxy over jclouds' filesystem store): the tests of the S3 blob store
 * and {@code ./platform --blob-store s3} talk to it over HTTP with signed requests, as to any S3 server.
 * Buckets are folders under the data directory; with a temporary one it is removed on close.
 */
public final class S3Server implements AutoCloseable {

    public static final String ACCESS_KEY = "platform-dev";
    public static final String SECRET_KEY = "platform-dev-secret";
    public static final String REGION = "us-east-1";

    /**
     * Jetty (shaded into S3Proxy) and jclouds log at debug on every read of a request body when nothing
     * configured them, which slows uploads to a crawl; held here so the levels are not collected away.
     */
    private static final List<java.util.logging.Logger> QUIET = Stream.of("org.gaul", "org.jclouds", "jclouds")
            .map(java.util.logging.Logger::getLogger)
            .peek(logger -> logger.setLevel(java.util.logging.Level.WARNING))
            .toList();

    private final S3Proxy proxy;
    private final BlobStoreContext context;
    private final Path dataDirectory;
    private final boolean temporary;

    private S3Server(S3Proxy proxy, BlobStoreContext context, Path dataDirectory, boolean temporary) {
        this.proxy = proxy;
        this.context = context;
        this.dataDirectory = dataDirectory;
        this.temporary = temporary;
    }

    /** A throw-away server on a free port. */
    public static S3Server startTemporary() {
        try {
            return start(Files.createTempDirectory("s3-server-"), 0, true);
        } catch (IOException e) {
            throw new UncheckedIOException("no temporary directory for the S3 server", e);
        }
    }

    /** A server keeping its buckets in {@code dataDirectory} across restarts. */
    public static S3Server startPersistent(Path dataDirectory, int port) {
        return start(dataDirectory, port, false);
    }

    private static S3Server start(Path dataDirectory, int port, boolean temporary) {
        try {
            Files.createDirectories(dataDirectory);
            Properties properties = new Properties();
            properties.setProperty("jclouds.filesystem.basedir", dataDirectory.toAbsolutePath().toString());
            BlobStoreContext context = ContextBuilder.newBuilder("filesystem")
                    .credentials("identity", "credential")
                    .overrides(properties)
                    .build(BlobStoreContext.class);
            S3Proxy proxy = S3Proxy.builder()
                    .blobStore(context.getBlobStore())
                    .endpoint(URI.create("http://127.0.0.1:" + port))
                    .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                    .build();
            proxy.start();
            while (!AbstractLifeCycle.STARTED.equals(proxy.getState())) {
                if (AbstractLifeCycle.FAILED.equals(proxy.getState())) {
                    throw new IllegalStateException("S3Proxy failed to start on port " + port);
                }
                Thread.sleep(10);
            }
            return new S3Server(proxy, context, dataDirectory, temporary);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("S3Proxy did not start", e);
        }
    }

    public int port() {
        return proxy.getPort();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port());
    }

    /** The settings pointing the platform's S3 blob store at this server's bucket (created on first use). */
    public Map<String, String> blobStoreConfig(String bucket) {
        return Map.of(
                "platform.blob.store", "s3",
                "platform.blob.s3.endpoint", endpoint().toString(),
                "platform.blob.s3.region", REGION,
                "platform.blob.s3.bucket", bucket,
                "platform.blob.s3.path-style", "true",
                "platform.blob.s3.access-key-id", ACCESS_KEY,
                "platform.blob.s3.secret-access-key", SECRET_KEY,
                "platform.blob.s3.create-bucket", "true");
    }

    @Override
    public void close() {
        try {
            proxy.stop();
        } catch (Exception e) {
            System.err.println("S3Proxy did not stop cleanly: " + e);
        }
        context.close();
        if (temporary) {
            try (Stream<Path> files = Files.walk(dataDirectory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                System.err.println("Could not remove " + dataDirectory + ": " + e);
            }
        }
    }
}
