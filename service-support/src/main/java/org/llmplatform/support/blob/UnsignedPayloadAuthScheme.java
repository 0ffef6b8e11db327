package org.llmplatform.support.blob;

import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.http.auth.aws.scheme.AwsV4AuthScheme;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.AsyncSignRequest;
import software.amazon.awssdk.http.auth.spi.signer.AsyncSignedRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.IdentityProvider;
import software.amazon.awssdk.identity.spi.IdentityProviders;

/**
 * SigV4 as the SDK signs, but the body is always sent as {@code UNSIGNED-PAYLOAD}: over plain HTTP as the SDK
 * already does over HTTPS. Over HTTP the SDK signs every body whatever the client's settings (in 2.57 its
 * {@code ChecksumUtil.isPayloadSigning} answers true for any HTTP request with a payload; for S3 that is
 * {@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD}, a SHA-256 of every 128 KB chunk as it is sent), which for the blob
 * store was a second SHA-256 pass over bytes whose SHA-256 is already their key, and the largest cost of a put
 * (S3 servers inside a cluster or on a laptop are mostly reached over HTTP). The bytes are no less checked:
 * every read verifies them against their digest ({@link VerifiedInputStream}).
 * <p>
 * The requests are signed by the SDK's own {@link AwsV4HttpSigner}, shown without their body (so it declares
 * the payload unsigned and reads none of it); the body is then sent as it was given.
 */
final class UnsignedPayloadAuthScheme implements AwsV4AuthScheme {

    private final AwsV4HttpSigner signer = new HeadersOnlySigner(AwsV4HttpSigner.create());

    @Override
    public String schemeId() {
        return SCHEME_ID;
    }

    @Override
    public IdentityProvider<AwsCredentialsIdentity> identityProvider(IdentityProviders providers) {
        return providers.identityProvider(AwsCredentialsIdentity.class);
    }

    @Override
    public AwsV4HttpSigner signer() {
        return signer;
    }

    private record HeadersOnlySigner(AwsV4HttpSigner sigV4) implements AwsV4HttpSigner {

        @Override
        public SignedRequest sign(SignRequest<? extends AwsCredentialsIdentity> request) {
            SignedRequest signed = sigV4.sign(request.copy(withoutBody -> withoutBody.payload(null)));
            return signed.copy(withBody -> withBody.payload(request.payload().orElse(null)));
        }

        @Override
        public CompletableFuture<AsyncSignedRequest> signAsync(AsyncSignRequest<? extends AwsCredentialsIdentity> request) {
            return sigV4.signAsync(request.copy(withoutBody -> withoutBody.payload(null)))
                    .thenApply(signed -> signed.copy(withBody -> withBody.payload(request.payload().orElse(null))));
        }
    }
}
