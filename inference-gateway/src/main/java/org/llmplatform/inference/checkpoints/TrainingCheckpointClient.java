package org.llmplatform.inference.checkpoints;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.model.events.CheckpointSaved;

/**
 * The training-service's {@code GET /v1/preview/serving-checkpoints/{entity}/{project}/{name}[?step=N]}: the step a
 * checkpoint name serves as the training API knows it, which may be ahead of what {@code training.checkpoints} has
 * brought this gateway. Asked with the caller's own key, so the training-service applies its own access rules.
 */
@Singleton
public class TrainingCheckpointClient {

    private static final Logger LOG = Logger.getLogger(TrainingCheckpointClient.class);

    private final Optional<URI> training;
    private final long timeoutMillis;
    private final Optional<HttpClient> client;
    private final ObjectMapper json;

    public TrainingCheckpointClient(GatewayConfig config, Vertx vertx, ObjectMapper json) {
        this.training = config.training().url();
        this.timeoutMillis = config.training().timeout().toMillis();
        this.client = training.map(url -> vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) timeoutMillis)
                .setKeepAlive(true)));
        this.json = json;
    }

    /** Whether a training-service is configured to ask. */
    public boolean configured() {
        return client.isPresent();
    }

    /**
     * The step {@code name} serves, empty when the training-service has no such step (or none is configured); a
     * training-service that cannot answer fails the request with 503, since a 404 could deny a model it acknowledged.
     */
    public Uni<Optional<CheckpointSaved>> find(CheckpointName name, String apiKey) {
        if (client.isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        RequestOptions request = new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setAbsoluteURI(training.get().resolve(path(name)).toString())
                .setTimeout(timeoutMillis)
                .putHeader("Authorization", "Bearer " + apiKey)
                .putHeader("Accept", "application/json");
        return Uni.createFrom().completionStage(() -> client.get().request(request)
                        .compose(sent -> sent.send())
                        .compose(response -> response.body().compose(body -> switch (response.statusCode()) {
                            case 200 -> parse(body.getBytes());
                            // 401/403 would mean the key works here and not there (one identity schema): not theirs to use
                            case 401, 403, 404 -> Future.succeededFuture(Optional.<CheckpointSaved>empty());
                            default -> Future.failedFuture(new IOException("it answered " + response.statusCode()));
                        }))
                        .toCompletionStage())
                .onFailure().transform(failure -> {
                    LOG.warnf("The training-service could not tell whether %s exists: %s", name, failure.getMessage());
                    return new OpenAiException(503, "Could not check with the training-service whether the model `" + name
                            + "` exists; try again", "ServiceUnavailableError", null, "model", Map.of());
                });
    }

    private Future<Optional<CheckpointSaved>> parse(byte[] body) {
        try {
            return Future.succeededFuture(Optional.of(json.readValue(body, CheckpointSaved.class)));
        } catch (IOException unreadable) {
            return Future.failedFuture(unreadable);
        }
    }

    private static String path(CheckpointName name) {
        return "/v1/preview/serving-checkpoints/" + segment(name.entity()) + "/" + segment(name.project()) + "/"
                + segment(name.modelName()) + (name.step() == null ? "" : "?step=" + name.step());
    }

    private static String segment(String part) {
        return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
