package org.llmplatform.support.auth;

import io.quarkus.cache.Cache;
import io.quarkus.cache.CacheName;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import org.llmplatform.model.auth.ApiKeys;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.config.AuthConfig;
import org.llmplatform.support.identity.IdentityStore;

/**
 * Resolves an API key to its principal. Answers, found or not, are cached by key hash in the Caffeine cache
 * {@value #CACHE}, for {@code platform.auth.cache-ttl} and up to {@code platform.auth.cache-size} keys (see
 * service-support's {@code microprofile-config.properties}), so a revoked key stops working within that time.
 * A failed lookup is not cached.
 */
@ApplicationScoped
public class ApiKeyAuthenticator {

    public static final String CACHE = "platform-api-keys";
    /** Where OTLP exporters send the key. */
    public static final String KEY_HEADER = "wandb-api-key";

    private final IdentityStore store;
    private final Optional<byte[]> bootstrapAdminKey;
    private final Cache principals;

    public ApiKeyAuthenticator(IdentityStore store, AuthConfig config, @CacheName(CACHE) Cache principals) {
        this.store = store;
        this.bootstrapAdminKey = config.bootstrapAdminKey().filter(key -> !key.isBlank())
                .map(key -> key.getBytes(StandardCharsets.UTF_8));
        this.principals = principals;
    }

    /**
     * The key a request carries: {@code Authorization: Bearer <key>}, {@code Authorization: Basic
     * base64(any:<key>)}, or the {@value #KEY_HEADER} header.
     */
    public static Optional<String> requestKey(String authorizationHeader, String keyHeader) {
        return ApiKeys.fromAuthorizationHeader(authorizationHeader)
                .or(() -> Optional.ofNullable(keyHeader).filter(value -> !value.isBlank()));
    }

    public Uni<Optional<Principal>> authenticate(String key) {
        if (isBootstrapAdminKey(key)) {
            return Uni.createFrom().item(Optional.of(Principal.bootstrapAdmin()));
        }
        return principals.getAsync(ApiKeys.hash(key), store::findPrincipalByKeyHash);
    }

    /** Forgets every cached answer, so that a change made by this process is seen at once. */
    public void forgetAll() {
        // Caffeine's invalidation runs within the subscription: nothing is left to wait for.
        principals.invalidateAll().subscribe().with(done -> { });
    }

    private boolean isBootstrapAdminKey(String key) {
        return bootstrapAdminKey.map(admin -> MessageDigest.isEqual(admin, key.getBytes(StandardCharsets.UTF_8))).orElse(false);
    }
}
