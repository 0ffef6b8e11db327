package org.llmplatform.support.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.engines.S3Server;
import org.llmplatform.model.events.BlobReference;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/** The S3 backend against a real S3 API server (S3Proxy), each test in a bucket of its own. */
class S3BlobStoreTest extends BlobStoreContract {

    private static S3Server server;
    private S3Settings settings;
    private S3BlobStore store;

    @BeforeAll
    static void startServer() {
        server = S3Server.startTemporary();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void open() {
        settings = S3Settings.of(server, "blobs-" + UUID.randomUUID());
        store = new S3BlobStore(settings);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    protected BlobStore store() {
        return store;
    }

    @Override
    protected void overwriteStored(BlobReference reference, byte[] bytes) {
        try (S3Client direct = S3Client.builder().endpointOverride(server.endpoint()).region(Region.of(S3Server.REGION)).forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3Server.ACCESS_KEY, S3Server.SECRET_KEY)))
                .build()) {
            direct.putObject(request -> request.bucket(settings.bucket()).key(ContentAddress.key(reference.sha256())), RequestBody.fromBytes(bytes));
        }
    }

    @Test
    void aServerThatDropsTheConnectionMidUploadIsRetried() throws IOException {
        long size = 24L * 1024 * 1024;
        long seed = System.nanoTime();
        try (CuttingProxy proxy = new CuttingProxy(server.port(), 2L * 1024 * 1024, 2);
                S3BlobStore throughProxy = new S3BlobStore(settings.through(proxy.endpoint()))) {

            BlobReference multipart = throughProxy.put(GeneratedStream.of(size, seed)).await().atMost(WAIT);
            BlobReference single = throughProxy.put(GeneratedStream.of(3L * 1024 * 1024, seed)).await().atMost(WAIT);

            assertEquals(2, proxy.cutsMade());
            assertEquals(GeneratedStream.digestOf(size, seed), multipart.sha256());
            assertEquals(multipart.sha256(), digestOfStream(multipart));
            assertEquals(single.sha256(), digestOfStream(single));
        }
    }

    /** Over plain HTTP too, the SDK does not hash what the store sends: the bytes' digest is already their key. */
    @Test
    void uploadsAreSignedWithoutAHashOfTheirBytes() throws IOException {
        long seed = System.nanoTime();
        try (CuttingProxy proxy = new CuttingProxy(server.port(), Long.MAX_VALUE, 0);
                S3BlobStore throughProxy = new S3BlobStore(settings.through(proxy.endpoint()))) {
            throughProxy.put(GeneratedStream.of(64L * 1024, seed)).await().atMost(WAIT);
            throughProxy.put(GeneratedStream.of(7L * 1024 * 1024, seed)).await().atMost(WAIT);

            String sent = proxy.sentByClients();
            Set<String> payloadHashes = Pattern.compile("(?im)^x-amz-content-sha256: *(\\S+)").matcher(sent).results()
                    .map(header -> header.group(1)).collect(Collectors.toSet());
            List<String> requests = Pattern.compile("(?m)^(GET|HEAD|PUT|POST|DELETE) \\S+").matcher(sent).results().map(MatchResult::group).toList();
            assertEquals(3, requests.stream().filter(request -> request.startsWith("PUT ")).count(), "one PUT and two parts: " + requests);
            assertEquals(Set.of("UNSIGNED-PAYLOAD"), payloadHashes);
            assertFalse(sent.contains("aws-chunked"));
        }
    }

    @Test
    void anUploadTheServerKeepsDroppingFailsAndLeavesNothingReadable() throws IOException {
        long seed = System.nanoTime();
        try (CuttingProxy proxy = new CuttingProxy(server.port(), 1024L * 1024, Integer.MAX_VALUE);
                S3BlobStore throughProxy = new S3BlobStore(settings.through(proxy.endpoint()))) {
            for (long size : List.of(24L * 1024 * 1024, 3L * 1024 * 1024)) {
                String digest = GeneratedStream.digestOf(size, seed);

                assertThrows(RuntimeException.class, () -> throughProxy.put(GeneratedStream.of(size, seed)).await().atMost(WAIT));

                BlobReference never = ContentAddress.reference(digest, size);
                assertFalse(store.exists(never).await().atMost(WAIT));
                assertThrows(BlobNotFoundException.class, () -> store.open(never).await().atMost(WAIT));
                assertEquals(List.of(), store.list(digest).collect().asList().await().atMost(WAIT));
            }
            assertTrue(proxy.cutsMade() > 2);
        }
    }

    @Test
    void aSmallUploadHeldInMemoryIsRetriedOrLeavesNothingReadable() throws IOException {
        long size = 512L * 1024;
        long seed = System.nanoTime();
        String digest = GeneratedStream.digestOf(size, seed);
        BlobReference expected = ContentAddress.reference(digest, size);
        try (CuttingProxy alwaysCutting = new CuttingProxy(server.port(), 64L * 1024, Integer.MAX_VALUE);
                S3BlobStore failing = new S3BlobStore(settings.through(alwaysCutting.endpoint()))) {

            assertThrows(RuntimeException.class, () -> failing.put(GeneratedStream.of(size, seed)).await().atMost(WAIT));

            assertTrue(alwaysCutting.cutsMade() > 1);
            assertFalse(store.exists(expected).await().atMost(WAIT));
        }
        try (CuttingProxy cuttingOnce = new CuttingProxy(server.port(), 64L * 1024, 1);
                S3BlobStore retrying = new S3BlobStore(settings.through(cuttingOnce.endpoint()))) {

            BlobReference stored = retrying.put(GeneratedStream.of(size, seed)).await().atMost(WAIT);
            BlobReference again = retrying.put(GeneratedStream.of(size, seed)).await().atMost(WAIT);

            assertEquals(1, cuttingOnce.cutsMade());
            assertEquals(expected, stored);
            assertEquals(expected, again);
            assertEquals(digest, digestOfStream(stored));
        }
    }
}
