package org.llmplatform.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.llmplatform.engines.S3Server;

/**
 * Runs a service's tests with the S3 blob store, on a bucket of a real S3 server (S3Proxy) started once per
 * test JVM: {@code @TestProfile(S3BlobStoreProfile.class)} on a subclass of a test runs the same cases there.
 */
public class S3BlobStoreProfile implements QuarkusTestProfile {

    private static S3Server server;

    @Override
    public Map<String, String> getConfigOverrides() {
        return server().blobStoreConfig("test-blobs-" + UUID.randomUUID());
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(PlatformTestResources.class));
    }

    private static synchronized S3Server server() {
        if (server == null) {
            server = S3Server.startTemporary();
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "test-s3-stop"));
        }
        return server;
    }
}
