package org.llmplatform.inference.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Multi;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;
import org.llmplatform.inference.chat.ChatCompletionChunk;
import org.llmplatform.inference.chat.ChatCompletionChunk.Choice;
import org.llmplatform.inference.chat.ChatCompletionChunk.Delta;
import org.llmplatform.inference.chat.ChatCompletionChunk.StreamUsage;
import org.llmplatform.inference.chat.ChatRequest;
import org.llmplatform.inference.chat.Logprobs;
import org.llmplatform.model.errors.OpenAiError;

/**
 * A chat completion as vLLM streams it (docs/inference-gateway.md#streaming-format): role chunk per choice, echo chunks, one chunk per
 * non-empty delta, the finish chunk of each choice, the usage chunk when asked, then {@code [DONE]};
 * a failure after the stream began is one in-band {@code {"error":…}} event before {@code [DONE]}.
 */
@Singleton
public class ChatStream {

    private static final Logger LOG = Logger.getLogger(ChatStream.class);
    private static final String DONE = "data: [DONE]\n\n";

    private final EngineChatService completions;
    private final ObjectMapper json;

    public ChatStream(EngineChatService completions, ObjectMapper json) {
        this.completions = completions;
        this.json = json;
    }

    /** SSE events, each a complete {@code data: …\n\n} block. */
    public Multi<String> events(ChatCall call) {
        Chunks chunks = new Chunks(call);
        return Multi.createBy().concatenating().streams(
                        Multi.createFrom().iterable(chunks.opening()),
                        completions.run(call).onItem().transformToIterable(chunks::forStep),
                        Multi.createFrom().deferred(() -> Multi.createFrom().iterable(chunks.closing())))
                .onFailure().recoverWithMulti(failure -> {
                    LOG.errorf(failure, "Stream %s failed", call.id());
                    return Multi.createFrom().items(event(new ErrorEvent(new OpenAiError(
                            "The server had an error while processing your request", "server_error", null, null))),
                            DONE);
                });
    }

    private String event(Object payload) {
        try {
            return "data: " + json.writeValueAsString(payload) + "\n\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a chunk could not be serialised", e);
        }
    }

    /** {@code {"error": {...}}}, the in-band error both SDKs raise. */
    @RegisterForReflection
    record ErrorEvent(OpenAiError error) {
    }

    /** The per-request state of the stream: logprobs waiting for a non-empty delta, running usage. */
    private final class Chunks {
        private final ChatCall call;
        private final CompletionPlan plan;
        private final TokenRendering rendering;
        private final List<List<Logprobs.Entry>> pendingLogprobs = new ArrayList<>();
        private final boolean includeUsage;
        private final boolean continuousUsage;

        Chunks(ChatCall call) {
            this.call = call;
            this.plan = call.plan();
            this.rendering = new TokenRendering(plan);
            ChatRequest.StreamOptions options = call.request().streamOptions();
            this.includeUsage = options != null && options.includeUsage();
            this.continuousUsage = includeUsage && options.continuousUsageStats();
            for (int i = 0; i < plan.choices(); i++) {
                pendingLogprobs.add(new ArrayList<>());
            }
        }

        List<String> opening() {
            List<String> events = new ArrayList<>();
            for (int i = 0; i < plan.choices(); i++) {
                events.add(chunk(new Choice(i, new Delta(plan.role(), ""), null, null, null), 0));
            }
            if (plan.echo() != null) {
                for (int i = 0; i < plan.choices(); i++) {
                    events.add(chunk(new Choice(i, new Delta(null, plan.echo()), null, null, null), 0));
                }
            }
            return events;
        }

        List<String> forStep(ChoiceStep step) {
            List<Logprobs.Entry> pending = pendingLogprobs.get(step.index());
            if (plan.logprobs()) {
                pending.add(rendering.entry(step.token()));
            }
            String delta = step.token().delta();
            if (delta.isEmpty() && !step.last()) {
                return List.of();
            }
            Logprobs logprobs = plan.logprobs() ? new Logprobs(List.copyOf(pending)) : null;
            pending.clear();
            Choice choice = step.last()
                    ? new Choice(step.index(), new Delta(null, delta.isEmpty() ? null : delta), logprobs,
                            step.finishReason().wireName(), step.stopReason())
                    : new Choice(step.index(), new Delta(null, delta), logprobs, null, null);
            return List.of(chunk(choice, step.completionTokens()));
        }

        List<String> closing() {
            List<String> events = new ArrayList<>();
            if (includeUsage) {
                events.add(event(ChatCompletionChunk.of(call.id(), call.created(), call.modelId(), List.of(),
                        StreamUsage.of(plan.prompt().length, call.totalCompletionTokens()))));
            }
            events.add(DONE);
            return events;
        }

        private String chunk(Choice choice, int completionTokens) {
            StreamUsage usage = continuousUsage ? StreamUsage.of(plan.prompt().length, completionTokens) : null;
            return event(ChatCompletionChunk.of(call.id(), call.created(), call.modelId(), List.of(choice), usage));
        }
    }
}
