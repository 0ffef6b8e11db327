package org.llmplatform.inference.completions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;
import org.llmplatform.inference.admission.AdmittedCall;
import org.llmplatform.inference.catalog.ServedModel;
import org.llmplatform.inference.chat.ChatCompletion;
import org.llmplatform.inference.chat.ChatCompletionChunk.StreamUsage;
import org.llmplatform.inference.chat.ChatRequest;
import org.llmplatform.inference.completions.CompletionCall.PromptRun;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.engine.ChoiceStep;
import org.llmplatform.inference.engine.CompletionPlan;
import org.llmplatform.inference.engine.CompletionPlanner;
import org.llmplatform.inference.engine.EngineChatService;
import org.llmplatform.inference.engine.EngineWorkers;
import org.llmplatform.inference.engine.GenerationRunner;
import org.llmplatform.inference.engine.TokenRendering;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.inference.http.PromptInput;
import org.llmplatform.inference.limits.ConcurrencyLimiter;
import org.llmplatform.inference.usage.UsagePublisher;
import org.llmplatform.llama.Tokenizer;
import org.llmplatform.model.errors.OpenAiError;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.ids.Uuids;

/**
 * Legacy completions on the embedded engine, as vLLM's {@code serving_completion.py} answers them: every prompt
 * planned as a chat's prompt is ({@link CompletionPlanner}) and run by the {@link GenerationRunner}, {@code n}
 * choices each; the echoed prompt with its logprobs; a stream of {@code text_completion} chunks, one per token.
 * Its usage record is published when it ends, however it ends.
 */
@Singleton
public class EngineCompletions {

    private static final Logger LOG = Logger.getLogger(EngineCompletions.class);
    private static final String DONE = "data: [DONE]\n\n";

    private final EngineChatService engine;
    private final CompletionPlanner planner;
    private final GenerationRunner runner;
    private final ConcurrencyLimiter limiter;
    private final UsagePublisher usage;
    private final EngineWorkers workers;
    private final GatewayConfig config;
    private final ObjectMapper json;

    public EngineCompletions(EngineChatService engine, CompletionPlanner planner, GenerationRunner runner,
            ConcurrencyLimiter limiter, UsagePublisher usage, EngineWorkers workers,
            GatewayConfig config, ObjectMapper json) {
        this.engine = engine;
        this.planner = planner;
        this.runner = runner;
        this.limiter = limiter;
        this.usage = usage;
        this.workers = workers;
        this.config = config;
        this.json = json;
    }

    /** Plans every prompt on an engine worker (tokenizing and scoring an echoed prompt are CPU work), then takes a slot. */
    Uni<CompletionCall> accept(AdmittedCall<CompletionRequest> admitted) {
        return engine.model(admitted.request().model(), admitted.caller()).emitOn(workers)
                .map(model -> accept(admitted, model));
    }

    private CompletionCall accept(AdmittedCall<CompletionRequest> admitted, ServedModel model) {
        CompletionRequest request = admitted.request();
        if (request.hasSuffix()) {
            throw OpenAiException.badRequest("suffix is not currently supported", "suffix");
        }
        int maxLogprobs = config.limits().maxLogprobs();
        if (request.logprobs() != null && request.logprobs() > maxLogprobs) {
            throw OpenAiException.badRequest("Requested sample logprobs of " + request.logprobs()
                    + ", which is greater than max allowed: " + maxLogprobs, "logprobs");
        }
        Tokenizer tokenizer = model.engine().tokenizer();
        List<PromptRun> prompts = new ArrayList<>(request.prompts().size());
        for (PromptInput input : request.prompts()) {
            int[] tokens = input.isText() ? tokenizer.encode(input.text(), true) : input.tokens();
            CompletionPlan plan = planner.plan(request.sampling(), tokens, "prompt", model, "assistant", null);
            String text = input.isText() ? input.text() : tokenizer.decodeAll(-1, plan.prompt());
            prompts.add(new PromptRun(plan, text, request.echo() && request.logprobs() != null
                    ? model.engine().promptLogprobs(plan.prompt(), request.logprobs()) : List.of()));
        }
        ConcurrencyLimiter.Permit permit = limiter.acquire(admitted.project().toString());
        String base = admitted.requestIdHeader() != null && !admitted.requestIdHeader().isBlank()
                ? admitted.requestIdHeader()
                : request.sampling().requestId() != null ? request.sampling().requestId() : Uuids.v7().toString();
        Instant now = Instant.now();
        return new CompletionCall("cmpl-" + base, now.getEpochSecond(), model.id(), admitted, prompts, permit, now);
    }

    /** The non-streamed {@code text_completion}. */
    Uni<TextCompletion> complete(CompletionCall call) {
        return run(call).collect().last()
                .map(ignored -> TextCompletion.of(call.id(), call.created(), call.model(), call.choices(true),
                        ChatCompletion.Usage.of(call.promptTokens(), call.totalCompletionTokens())));
    }

    /** The SSE events of a streamed completion, each a complete {@code data: …\n\n} block, then {@code [DONE]}. */
    Multi<String> events(CompletionCall call) {
        Chunks chunks = new Chunks(call);
        return Multi.createBy().concatenating().streams(run(call).onItem().transform(chunks::forStep),
                        Multi.createFrom().deferred(() -> Multi.createFrom().iterable(chunks.closing())))
                .onFailure().recoverWithMulti(failure -> {
                    LOG.errorf(failure, "Stream %s failed", call.id());
                    return Multi.createFrom().items(event(Map.of("error", new OpenAiError(
                            "The server had an error while processing your request", "server_error", null, null))), DONE);
                });
    }

    /** Every prompt's choices merged; nothing runs for an echo without generation. */
    private Multi<Step> run(CompletionCall call) {
        List<Multi<Step>> runs = new ArrayList<>();
        if (!call.request().echoOnly()) {
            for (int p = 0; p < call.prompts().size(); p++) {
                int prompt = p;
                runs.add(runner.run(call.prompts().get(p).plan()).map(step -> new Step(call.choice(prompt, step), step)));
            }
        }
        Multi<Step> steps = runs.isEmpty() ? Multi.createFrom().empty() : Multi.createBy().merging().streams(runs);
        return steps.onItem().invoke(step -> call.add(step.choice(), step.step()))
                .onTermination().invoke((failure, cancelled) -> finish(call, failure, cancelled));
    }

    private void finish(CompletionCall call, Throwable failure, boolean cancelled) {
        call.permit().release();
        long prompt = call.promptTokens();
        long completion = call.totalCompletionTokens();
        call.admitted().limits().charge(prompt + completion);
        Instant ended = Instant.now();
        String status = failure != null ? UsageRecord.ERROR : cancelled ? UsageRecord.CANCELLED : UsageRecord.SUCCESS;
        TextCompletion answer = TextCompletion.of(call.id(), call.created(), call.model(), call.choices(false),
                ChatCompletion.Usage.of(prompt, completion));
        usage.publish(new UsageRecord(UsageRecord.SCHEMA_VERSION, call.id(), call.admitted().project().toString(),
                call.admitted().user(), call.model(), prompt, completion,
                Duration.between(call.started(), ended).toMillis(), status, call.started(), ended,
                call.admitted().weaveCallId(), call.id(), UsageRecord.withinLimit(call.admitted().body()),
                UsageRecord.withinLimit(json.valueToTree(answer)),
                failure == null ? null : String.valueOf(failure.getMessage())));
    }

    private String event(Object payload) {
        try {
            return "data: " + json.writeValueAsString(payload) + "\n\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a chunk could not be serialised", e);
        }
    }

    /** One token of choice {@code choice} (over every prompt). */
    private record Step(int choice, ChoiceStep step) {
    }

    /**
     * The chunks of one stream, as vLLM's {@code completion_stream_generator}: a choice's first chunk carries the
     * echoed prompt before its first token; a chunk's logprobs offsets continue from the text generated so far
     * (the echoed prompt not counted, as vLLM counts them).
     */
    private final class Chunks {
        private final CompletionCall call;
        private final boolean[] echoed;
        private final int[] generatedLength;
        private final boolean continuousUsage;
        private final boolean includeUsage;

        Chunks(CompletionCall call) {
            this.call = call;
            int choices = call.prompts().size() * call.request().choicesPerPrompt();
            this.echoed = new boolean[choices];
            this.generatedLength = new int[choices];
            ChatRequest.StreamOptions options = call.request().sampling().streamOptions();
            this.includeUsage = options != null && options.includeUsage();
            this.continuousUsage = includeUsage && options.continuousUsageStats();
        }

        String forStep(Step step) {
            int choice = step.choice();
            PromptRun prompt = call.promptOf(choice);
            String delta = step.step().token().delta();
            boolean echo = call.request().echo() && !echoed[choice];
            echoed[choice] = true;
            TextCompletion.CompletionLogprobs logprobs = null;
            if (call.request().logprobs() != null) {
                LogprobsWriter writer = new LogprobsWriter(new TokenRendering(prompt.plan()), generatedLength[choice]);
                if (echo) {
                    CompletionCall.echoLogprobs(prompt, writer);
                }
                writer.scored(step.step().token());
                logprobs = writer.written();
            }
            generatedLength[choice] += delta.codePointCount(0, delta.length());
            ChoiceStep last = step.step().last() ? step.step() : null;
            TextCompletion.Choice chunk = new TextCompletion.Choice(choice, echo ? prompt.text() + delta : delta,
                    logprobs, last == null ? null : last.finishReason().wireName(), last == null ? null : last.stopReason());
            return chunk(chunk, prompt, call.completionTokens(choice));
        }

        /** An echo without generation: the prompt of each choice, finished by length. */
        private List<String> echoOnly() {
            List<String> events = new ArrayList<>();
            for (TextCompletion.Choice choice : call.choices(true)) {
                events.add(chunk(choice, call.promptOf(choice.index()), 0));
            }
            return events;
        }

        private String chunk(TextCompletion.Choice choice, PromptRun prompt, int completionTokens) {
            int promptTokens = prompt.plan().prompt().length;
            Object usage = continuousUsage ? StreamUsage.of(promptTokens, completionTokens) : null;
            return event(TextCompletion.of(call.id(), call.created(), call.model(), List.of(choice), usage));
        }

        List<String> closing() {
            List<String> events = call.request().echoOnly() ? echoOnly() : new ArrayList<>();
            if (includeUsage) {
                events.add(event(new UsageChunk(call.id(), TextCompletion.OBJECT, call.created(), call.model(),
                        List.of(), StreamUsage.of(call.promptTokens(), call.totalCompletionTokens()))));
            }
            events.add(DONE);
            return events;
        }
    }

    /** The last chunk when usage is asked for, dumped without nulls as vLLM dumps it. */
    @RegisterForReflection
    record UsageChunk(String id, String object, long created, String model, List<Object> choices, StreamUsage usage) {
    }
}
