package org.llmplatform.automation.service;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.regex.Pattern;
import org.llmplatform.automation.security.SecretCipher;
import org.llmplatform.automation.store.SecretInfo;
import org.llmplatform.automation.store.SecretStore;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;

/** Team secrets: written (created or rotated) and deleted by the entity's admins, never read back. */
@ApplicationScoped
public class SecretService {

    static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]{1,64}");
    private static final int LARGEST_VALUE = 16 * 1024;

    private final SecretStore store;
    private final SecretCipher cipher;
    private final CurrentPrincipal caller;

    public SecretService(SecretStore store, SecretCipher cipher, CurrentPrincipal caller) {
        this.store = store;
        this.cipher = cipher;
        this.caller = caller;
    }

    public Uni<SecretInfo> put(String entity, String name, String value) {
        Permissions.requireManager(caller.get(), entity, "secrets");
        requireName(name);
        if (value == null) {
            throw ApiException.missingField("value");
        }
        if (value.isEmpty() || value.length() > LARGEST_VALUE) {
            throw ApiException.invalidField("value_error", List.of("body", "value"),
                    "A secret value must hold 1 to " + LARGEST_VALUE + " characters", null);
        }
        return store.put(entity, name, cipher.encrypt(entity, name, value));
    }

    public Uni<List<SecretInfo>> list(String entity) {
        Permissions.requireViewer(caller.get(), entity);
        return store.list(entity);
    }

    public Uni<Void> delete(String entity, String name) {
        Permissions.requireManager(caller.get(), entity, "secrets");
        return store.delete(entity, name).invoke(deleted -> {
            if (!deleted) {
                throw ApiException.notFound("No secret '" + name + "' in '" + entity + "'");
            }
        }).replaceWithVoid();
    }

    static void requireName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw ApiException.invalidField("string_pattern_mismatch", List.of("path", "name"),
                    "A secret name has 1 to 64 letters, digits or '_'", name);
        }
    }
}
