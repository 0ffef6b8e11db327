package org.llmplatform.support.auth;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.llmplatform.model.auth.ApiKeys;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.config.AuthConfig;
import org.llmplatform.support.identity.IdentityStore;

/**
 * Resolves an API key to its principal. Answers, found or not, are cached by key hash for
 * {@code platform.auth.cache-ttl}, so a revoked key stops working within that time.
 */
@ApplicationScoped
public class ApiKeyAuthenticator {

    private record Cached(Optional<Principal> principal, long expiresAtNanos) {
    }

    private final IdentityStore store;
    private final Optional<byte[]> bootstrapAdminKey;
    private final long ttlNanos;
    private final int maxEntries;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    public ApiKeyAuthenticator(IdentityStore store, AuthConfig config) {
        this.store = store;
        this.bootstrapAdminKey = config.bootstrapAdminKey().filter(key -> !key.isBlank())
                .map(key -> key.getBytes(StandardCharsets.UTF_8));
        this.ttlNanos = config.cacheTtl().toNanos();
        this.maxEntries = config.cacheSize();
    }

    public Uni<Optional<Principal>> authenticate(String key) {
        if (isBootstrapAdminKey(key)) {
            return Uni.createFrom().item(Optional.of(Principal.bootstrapAdmin()));
        }
        String hash = ApiKeys.hash(key);
        long now = System.nanoTime();
        Cached cached = cache.get(hash);
        if (cached != null && now - cached.expiresAtNanos() < 0) {
            return Uni.createFrom().item(cached.principal());
        }
        return store.findPrincipalByKeyHash(hash).invoke(principal -> remember(hash, principal, now));
    }

    /** Forgets every cached answer, so that a change made by this process is seen at once. */
    public void forgetAll() {
        cache.clear();
    }

    private void remember(String hash, Optional<Principal> principal, long now) {
        if (cache.size() >= maxEntries) {
            cache.values().removeIf(entry -> now - entry.expiresAtNanos() >= 0);
            if (cache.size() >= maxEntries) {
                cache.clear();
            }
        }
        cache.put(hash, new Cached(principal, now + ttlNanos));
    }

    private boolean isBootstrapAdminKey(String key) {
        return bootstrapAdminKey.map(admin -> MessageDigest.isEqual(admin, key.getBytes(StandardCharsets.UTF_8))).orElse(false);
    }
}
