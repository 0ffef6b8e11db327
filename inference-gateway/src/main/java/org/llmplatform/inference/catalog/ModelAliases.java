package org.llmplatform.inference.catalog;

import jakarta.inject.Singleton;
import java.util.Map;
import java.util.TreeMap;
import org.llmplatform.inference.config.GatewayConfig;

/**
 * Public model names that stand for another backend id ({@code gateway.aliases.<public>=<backend id>}),
 * so clients keep one name while the model behind it changes. Answers keep the public name.
 */
@Singleton
public class ModelAliases {

    private final Map<String, String> aliases;

    public ModelAliases(GatewayConfig config) {
        this.aliases = new TreeMap<>(config.aliases());
    }

    /** The backend id {@code model} stands for; itself when it is no alias. */
    public String backend(String model) {
        return model == null ? null : aliases.getOrDefault(model, model);
    }

    public Map<String, String> all() {
        return aliases;
    }
}
