package org.llmplatform.inference.limits;

import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.llmplatform.inference.catalog.ModelCatalog;
import org.llmplatform.inference.catalog.ServedModel;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.OpenAiException;

/**
 * The models a project may use (docs/inference-gateway.md#project-rules), from the configuration; what it may spend is
 * {@link RateLimits}'.
 */
@Singleton
public class ProjectPolicy {

    private final GatewayConfig config;
    private final ModelCatalog catalog;

    public ProjectPolicy(GatewayConfig config, ModelCatalog catalog) {
        this.config = config;
        this.catalog = catalog;
    }

    /** Refuses a model outside the project's allow-list (a request without {@code model} asks for the default one). */
    public void admit(String project, String model) {
        Optional<List<String>> allowed = Optional.ofNullable(config.projects().get(project))
                .flatMap(GatewayConfig.ProjectRules::allowedModels);
        if (allowed.isPresent()) {
            String asked = model != null && !model.isEmpty() ? model
                    : catalog.first().map(ServedModel::id).orElse(null);
            if (asked != null && !allowed.get().contains(asked)) {
                throw new OpenAiException(403, "Project `" + project + "` does not have access to model `" + asked
                        + "`", "invalid_request_error", "model_not_found", "model", Map.of());
            }
        }
    }
}
