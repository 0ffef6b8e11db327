package org.llmplatform.inference.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.llmplatform.inference.catalog.ModelAliases;
import org.llmplatform.inference.catalog.ServedModel;
import org.llmplatform.inference.admission.AdmittedCall;
import org.llmplatform.inference.chat.ChatCompletion;
import org.llmplatform.inference.chat.ChatRequest;
import org.llmplatform.inference.chat.Logprobs;
import org.llmplatform.inference.checkpoints.CheckpointModels;
import org.llmplatform.inference.checkpoints.CheckpointName;
import org.llmplatform.inference.limits.ConcurrencyLimiter;
import org.llmplatform.inference.limits.ProjectPolicy;
import org.llmplatform.inference.usage.UsagePublisher;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.ids.Uuids;

/**
 * Accepts chat completions (plan, concurrency slot, ids), runs them on the engine and publishes their
 * usage record when they end, however they end.
 */
@Singleton
public class EngineChatService {

    private final CompletionPlanner planner;
    private final GenerationRunner runner;
    private final ConcurrencyLimiter limiter;
    private final UsagePublisher usage;
    private final CheckpointModels checkpoints;
    private final ModelAliases aliases;
    private final EngineWorkers workers;
    private final ObjectMapper json;

    public EngineChatService(CompletionPlanner planner, GenerationRunner runner, ConcurrencyLimiter limiter,
            UsagePublisher usage, CheckpointModels checkpoints, ModelAliases aliases,
            EngineWorkers workers, ObjectMapper json) {
        this.workers = workers;
        this.json = json;
        this.checkpoints = checkpoints;
        this.aliases = aliases;
        this.planner = planner;
        this.runner = runner;
        this.limiter = limiter;
        this.usage = usage;
    }

    /**
     * Resolves the model (a configured one, or a trained checkpoint {@code caller} may use), then checks
     * the request against it and the project's concurrency limit on an engine worker (tokenizing is CPU
     * work), where its generation then starts without another hand-off. The id is {@code chatcmpl-} + the X-Request-Id header, else the body's request_id, else a uuid.
     */
    public Uni<ChatCall> accept(AdmittedCall<ChatRequest> call) {
        return model(call.request().model(), call.caller()).emitOn(workers).map(served -> accept(call, served));
    }

    /**
     * The engine's model of the public name {@code requested} (an alias, a configured model, or a trained checkpoint
     * {@code caller} may use), under that name; a 404 when there is none.
     */
    public Uni<ServedModel> model(String requested, Principal caller) {
        String backend = aliases.backend(requested);
        return CheckpointName.looksLikeOne(backend)
                ? checkpoints.resolve(backend, caller).map(served -> served.as(requested))
                : Uni.createFrom().item(() -> planner.model(backend, requested).as(requested));
    }

    private ChatCall accept(AdmittedCall<ChatRequest> call, ServedModel model) {
        ChatRequest request = call.request();
        String requestIdHeader = call.requestIdHeader();
        CompletionPlan plan = planner.plan(request, model);
        ConcurrencyLimiter.Permit permit = limiter.acquire(call.project().toString());
        String base = requestIdHeader != null && !requestIdHeader.isBlank() ? requestIdHeader
                : request.requestId() != null ? request.requestId() : Uuids.v7().toString();
        Instant now = Instant.now();
        return new ChatCall("chatcmpl-" + base, base, call.weaveCallId(), now.getEpochSecond(), request, call.body(), plan,
                call.project(), call.user(), now, permit, new AtomicIntegerArray(plan.choices()),
                new ChoiceTexts(plan.choices(), plan.echo()), call.limits());
    }

    /** The steps of every choice; when they end the slot is released and the usage published. */
    public Multi<ChoiceStep> run(ChatCall call) {
        return runner.run(call.plan())
                .onItem().invoke(step -> {
                    call.completionTokens().set(step.index(), step.completionTokens());
                    call.texts().add(step);
                })
                .onTermination().invoke((failure, cancelled) -> finish(call, failure, cancelled));
    }

    public Uni<ChatCompletion> complete(ChatCall call) {
        return run(call).collect().asList().map(steps -> completion(call, steps));
    }

    private ChatCompletion completion(ChatCall call, List<ChoiceStep> steps) {
        CompletionPlan plan = call.plan();
        List<StringBuilder> texts = new ArrayList<>();
        List<List<Logprobs.Entry>> logprobs = new ArrayList<>();
        ChoiceStep[] last = new ChoiceStep[plan.choices()];
        for (int i = 0; i < plan.choices(); i++) {
            texts.add(new StringBuilder(plan.echo() == null ? "" : plan.echo()));
            logprobs.add(new ArrayList<>());
        }
        TokenRendering rendering = new TokenRendering(plan);
        for (ChoiceStep step : steps) {
            texts.get(step.index()).append(step.token().delta());
            if (plan.logprobs()) {
                logprobs.get(step.index()).add(rendering.entry(step.token()));
            }
            if (step.last()) {
                last[step.index()] = step;
            }
        }
        List<ChatCompletion.Choice> choices = new ArrayList<>();
        for (int i = 0; i < plan.choices(); i++) {
            choices.add(new ChatCompletion.Choice(i, ChatCompletion.Message.of(plan.role(), texts.get(i).toString()),
                    plan.logprobs() ? new Logprobs(logprobs.get(i)) : null,
                    last[i].finishReason().wireName(), last[i].stopReason()));
        }
        return ChatCompletion.of(call.id(), call.created(), call.modelId(), choices,
                ChatCompletion.Usage.of(plan.prompt().length, call.totalCompletionTokens()));
    }

    private void finish(ChatCall call, Throwable failure, boolean cancelled) {
        call.permit().release();
        call.limits().charge(call.plan().prompt().length + call.totalCompletionTokens());
        Instant ended = Instant.now();
        String status = failure != null ? UsageRecord.ERROR : cancelled ? UsageRecord.CANCELLED : UsageRecord.SUCCESS;
        ChatCompletion answer = ChatCompletion.of(call.id(), call.created(), call.modelId(),
                call.texts().choices(call.plan().role()),
                ChatCompletion.Usage.of(call.plan().prompt().length, call.totalCompletionTokens()));
        usage.publish(new UsageRecord(UsageRecord.SCHEMA_VERSION, call.id(), call.project().toString(), call.user(),
                call.modelId(), call.plan().prompt().length, call.totalCompletionTokens(),
                Duration.between(call.started(), ended).toMillis(), status, call.started(), ended, call.weaveCallId(),
                call.id(), UsageRecord.withinLimit(call.body()), UsageRecord.withinLimit(json.valueToTree(answer)),
                failure == null ? null : String.valueOf(failure.getMessage())));
    }
}
