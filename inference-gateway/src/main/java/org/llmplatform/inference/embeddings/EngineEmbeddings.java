package org.llmplatform.inference.embeddings;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.llmplatform.inference.admission.AdmittedCall;
import org.llmplatform.inference.catalog.ServedModel;
import org.llmplatform.inference.chat.ChatCompletion;
import org.llmplatform.inference.engine.EngineChatService;
import org.llmplatform.inference.engine.EngineWorkers;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.inference.http.PromptInput;
import org.llmplatform.inference.limits.ConcurrencyLimiter;
import org.llmplatform.inference.usage.UsagePublisher;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.ids.Uuids;

/**
 * Embeddings of the engine's models ({@link LlamaEngine#embed}: the final hidden state, mean-pooled, unit length),
 * computed on an engine worker under the project's concurrency slot. The usage record carries the answer without
 * its vectors: the tokens and the inputs are what a trace of it shows.
 */
@Singleton
public class EngineEmbeddings {

    private final EngineChatService engine;
    private final EngineWorkers workers;
    private final ConcurrencyLimiter limiter;
    private final UsagePublisher usage;

    public EngineEmbeddings(EngineChatService engine, EngineWorkers workers, ConcurrencyLimiter limiter,
            UsagePublisher usage) {
        this.engine = engine;
        this.workers = workers;
        this.limiter = limiter;
        this.usage = usage;
    }

    Uni<EmbeddingList> embed(AdmittedCall<EmbeddingsRequest> call) {
        return engine.model(call.request().model(), call.caller()).emitOn(workers)
                .map(model -> embed(call, model));
    }

    private EmbeddingList embed(AdmittedCall<EmbeddingsRequest> call, ServedModel model) {
        EmbeddingsRequest request = call.request();
        if (request.dimensions() != null) {
            throw OpenAiException.badRequest("Model \"" + model.id() + "\" does not support matryoshka representation,"
                    + " changing output dimensions will lead to poor results.", "dimensions");
        }
        List<int[]> inputs = new ArrayList<>(request.inputs().size());
        int vocab = model.engine().tokenizer().vocabSize();
        for (PromptInput input : request.inputs()) {
            int[] tokens = input.isText() ? model.engine().tokenizer().encode(input.text(), true) : input.tokens();
            if (tokens.length > model.maxModelLen()) {
                throw OpenAiException.badRequest("This model's maximum context length is " + model.maxModelLen()
                        + " tokens. However, you requested " + tokens.length + " tokens in the input for embedding"
                        + " generation. Please reduce the length of the input.", "input");
            }
            for (int token : tokens) {
                if (token < 0 || token >= vocab) {
                    throw OpenAiException.badRequest("Token id " + token + " is out of vocabulary", "input");
                }
            }
            inputs.add(tokens);
        }
        String project = call.project().toString();
        ConcurrencyLimiter.Permit permit = limiter.acquire(project);
        String id = "embd-" + (call.requestIdHeader() != null && !call.requestIdHeader().isBlank()
                ? call.requestIdHeader() : request.requestId() != null ? request.requestId() : Uuids.v7().toString());
        Instant started = Instant.now();
        long promptTokens = inputs.stream().mapToLong(tokens -> tokens.length).sum();
        List<EmbeddingList.Embedding> data = new ArrayList<>(inputs.size());
        Throwable failure = null;
        try {
            for (int[] tokens : inputs) {
                float[] vector = model.engine().embed(tokens);
                data.add(new EmbeddingList.Embedding(data.size(), "embedding",
                        request.base64() ? base64(vector) : floats(vector)));
            }
            return new EmbeddingList(id, "list", started.getEpochSecond(), model.id(), data,
                    ChatCompletion.Usage.of(promptTokens, 0));
        } catch (RuntimeException e) {
            failure = e;
            throw e;
        } finally {
            permit.release();
            call.limits().charge(promptTokens);
            record(call, id, model.id(), promptTokens, data.size(), started, failure);
        }
    }

    private void record(AdmittedCall<EmbeddingsRequest> call, String id, String model, long promptTokens,
            int embeddings, Instant started, Throwable failure) {
        Instant ended = Instant.now();
        ObjectNode answer = JsonNodeFactory.instance.objectNode()
                .put("id", id).put("object", "list").put("model", model).put("embeddings", embeddings);
        answer.putObject("usage").put("prompt_tokens", promptTokens).put("total_tokens", promptTokens)
                .put("completion_tokens", 0);
        usage.publish(new UsageRecord(UsageRecord.SCHEMA_VERSION, id, call.project().toString(), call.user(), model,
                promptTokens, 0, Duration.between(started, ended).toMillis(),
                failure == null ? UsageRecord.SUCCESS : UsageRecord.ERROR, started, ended, call.weaveCallId(), id,
                UsageRecord.withinLimit(call.body()), answer, failure == null ? null : String.valueOf(failure.getMessage())));
    }

    private static List<Float> floats(float[] vector) {
        List<Float> out = new ArrayList<>(vector.length);
        for (float value : vector) {
            out.add(value);
        }
        return out;
    }

    /** The vector's float32 values, little-endian, in base64: what OpenAI sends and its SDKs decode. */
    static String base64(float[] vector) {
        ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(vector);
        return Base64.getEncoder().encodeToString(bytes.array());
    }
}
