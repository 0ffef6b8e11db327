package org.llmplatform.inference.catalog;

import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jboss.logging.Logger;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.llama.LlamaEngine;

/**
 * The embedded models from {@code gateway.models.*}, loaded at start. A model whose files are absent
 * or unreadable is skipped with a warning, so the gateway starts without any model file.
 */
@Startup
@Singleton
public class ModelCatalog {

    private static final Logger LOG = Logger.getLogger(ModelCatalog.class);

    private final Map<String, ServedModel> models = new TreeMap<>();

    public ModelCatalog(GatewayConfig config) {
        config.models().forEach((id, files) -> {
            if (!Files.isRegularFile(files.checkpoint()) || !Files.isRegularFile(files.tokenizer())) {
                LOG.warnf("Model %s is not served: no checkpoint at %s or no tokenizer at %s", id,
                        files.checkpoint().toAbsolutePath(), files.tokenizer().toAbsolutePath());
                return;
            }
            try {
                LlamaEngine engine = LlamaEngine.load(files.checkpoint(), files.tokenizer());
                // The checkpoint's file name, not its path: where the deployment keeps its files is its own business.
                models.put(id, new ServedModel(id, files.checkpoint().getFileName().toString(), engine.config().seqLen(), engine));
                LOG.infof("Serving model %s from %s (%s)", id, files.checkpoint(), engine.config());
            } catch (IOException | RuntimeException e) {
                LOG.warnf("Model %s is not served: %s", id, e.getMessage());
            }
        });
        if (models.isEmpty()) {
            LOG.warn("No model is served (configure gateway.models.<id>.checkpoint and .tokenizer with llama2.c files):"
                    + " the gateway runs, /v1/models is empty and chat completions answer 404");
        }
    }

    public Collection<ServedModel> all() {
        return models.values();
    }

    public Optional<ServedModel> find(String id) {
        return Optional.ofNullable(models.get(id));
    }

    /** The model a request without {@code model} gets: the first served one. */
    public Optional<ServedModel> first() {
        return models.values().stream().findFirst();
    }
}
