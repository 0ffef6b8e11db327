package org.llmplatform.support.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/** The blob store's signing of an upload over plain HTTP, with the properties the S3 client gives a PutObject. */
class UnsignedPayloadAuthSchemeTest {

    private static final byte[] BODY = new byte[256 * 1024];

    @Test
    void anUploadOverHttpIsSignedWithoutReadingItsBody() {
        CountingBody body = new CountingBody();

        SignedRequest signed = new UnsignedPayloadAuthScheme().signer().sign(putObject(body));

        assertEquals("UNSIGNED-PAYLOAD", signed.request().firstMatchingHeader("x-amz-content-sha256").orElseThrow());
        assertTrue(signed.request().firstMatchingHeader("Authorization").orElseThrow().startsWith("AWS4-HMAC-SHA256 Credential=key/"));
        assertEquals(String.valueOf(BODY.length), signed.request().firstMatchingHeader("Content-Length").orElseThrow());
        assertTrue(signed.request().firstMatchingHeader("Content-Encoding").isEmpty(), "no aws-chunked framing");
        assertSame(body, signed.payload().orElseThrow());
        assertEquals(0, body.streamsOpened.get());
    }

    /** Why the scheme exists: the SDK's own signer hashes the whole body of the same request as it sends it. */
    @Test
    void theSdksOwnSignerHashesTheBodyOfTheSameUpload() throws Exception {
        CountingBody body = new CountingBody();

        SignedRequest signed = AwsV4HttpSigner.create().sign(putObject(body));
        try (InputStream sent = signed.payload().orElseThrow().newStream()) {
            sent.transferTo(OutputStream.nullOutputStream());
        }

        assertEquals("STREAMING-AWS4-HMAC-SHA256-PAYLOAD", signed.request().firstMatchingHeader("x-amz-content-sha256").orElseThrow());
        assertEquals(1, body.streamsOpened.get());
    }

    private static SignRequest<AwsCredentialsIdentity> putObject(ContentStreamProvider body) {
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.PUT)
                .uri(URI.create("http://127.0.0.1:9000/blobs/sha256/ab/abcdef"))
                .putHeader("Content-Length", String.valueOf(BODY.length))
                .build();
        return SignRequest.builder(AwsCredentialsIdentity.create("key", "secret"))
                .request(request)
                .payload(body)
                .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "s3")
                .putProperty(AwsV4FamilyHttpSigner.DOUBLE_URL_ENCODE, false)
                .putProperty(AwsV4FamilyHttpSigner.NORMALIZE_PATH, false)
                .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                .putProperty(AwsV4FamilyHttpSigner.CHUNK_ENCODING_ENABLED, true)
                .build();
    }

    /** A body that counts how often it is read. */
    private static final class CountingBody implements ContentStreamProvider {
        private final AtomicInteger streamsOpened = new AtomicInteger();

        @Override
        public InputStream newStream() {
            streamsOpened.incrementAndGet();
            return new ByteArrayInputStream(BODY);
        }
    }
}
