package org.llmplatform.tracing.files;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.llmplatform.testing.S3BlobStoreProfile;

/** The file API's cases with the bytes in a bucket of a real S3 server instead of files. */
@QuarkusTest
@TestProfile(S3BlobStoreProfile.class)
class FileApiOnS3Test extends FileApiTest {
}
