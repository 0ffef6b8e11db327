package org.llmplatform.inference.completions;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.llmplatform.inference.admission.AdmittedCall;
import org.llmplatform.inference.engine.ChoiceStep;
import org.llmplatform.inference.engine.CompletionPlan;
import org.llmplatform.inference.engine.TokenRendering;
import org.llmplatform.inference.limits.ConcurrencyLimiter;
import org.llmplatform.llama.GeneratedToken;

/**
 * One legacy completion accepted by the engine: its ids, the plan of every prompt, the concurrency slot it holds,
 * and what each choice (prompt {@code p}'s {@code k}th is choice {@code p * n + k}) has so far: its text (after the
 * echoed prompt), logprobs, finish and completion tokens, for the answer and the usage record.
 */
final class CompletionCall {

    /** A prompt as planned, the text an echo shows, and its tokens' logprobs when an echo asks for them. */
    record PromptRun(CompletionPlan plan, String text, List<GeneratedToken> scored) {
    }

    private final String id;
    private final long created;
    private final String model;
    private final AdmittedCall<CompletionRequest> admitted;
    private final List<PromptRun> prompts;
    private final ConcurrencyLimiter.Permit permit;
    private final Instant started;
    private final StringBuilder[] texts;
    private final LogprobsWriter[] logprobs;
    private final String[] finishReasons;
    private final Object[] stopReasons;
    private final int[] completionTokens;

    CompletionCall(String id, long created, String model, AdmittedCall<CompletionRequest> admitted,
            List<PromptRun> prompts, ConcurrencyLimiter.Permit permit, Instant started) {
        this.id = id;
        this.created = created;
        this.model = model;
        this.admitted = admitted;
        this.prompts = prompts;
        this.permit = permit;
        this.started = started;
        int n = request().choicesPerPrompt();
        int choices = prompts.size() * n;
        texts = new StringBuilder[choices];
        logprobs = new LogprobsWriter[choices];
        finishReasons = new String[choices];
        stopReasons = new Object[choices];
        completionTokens = new int[choices];
        for (int choice = 0; choice < choices; choice++) {
            PromptRun prompt = prompts.get(choice / n);
            texts[choice] = new StringBuilder(request().echo() ? prompt.text() : "");
            if (request().logprobs() != null) {
                logprobs[choice] = new LogprobsWriter(new TokenRendering(prompt.plan()), 0);
                if (request().echo()) {
                    echoLogprobs(prompt, logprobs[choice]);
                }
            }
            if (request().echoOnly()) {
                finishReasons[choice] = "length";
            }
        }
    }

    /** The prompt's tokens in logprobs: the first unscored, the others with the logprobs the model gave them. */
    static void echoLogprobs(PromptRun prompt, LogprobsWriter writer) {
        int[] tokens = prompt.plan().prompt();
        writer.unscored(tokens[0]);
        prompt.scored().forEach(writer::scored);
    }

    String id() {
        return id;
    }

    long created() {
        return created;
    }

    String model() {
        return model;
    }

    AdmittedCall<CompletionRequest> admitted() {
        return admitted;
    }

    CompletionRequest request() {
        return admitted.request();
    }

    List<PromptRun> prompts() {
        return prompts;
    }

    ConcurrencyLimiter.Permit permit() {
        return permit;
    }

    Instant started() {
        return started;
    }

    int choice(int prompt, ChoiceStep step) {
        return prompt * request().choicesPerPrompt() + step.index();
    }

    PromptRun promptOf(int choice) {
        return prompts.get(choice / request().choicesPerPrompt());
    }

    synchronized void add(int choice, ChoiceStep step) {
        texts[choice].append(step.token().delta());
        completionTokens[choice] = step.completionTokens();
        if (logprobs[choice] != null) {
            logprobs[choice].scored(step.token());
        }
        if (step.last()) {
            finishReasons[choice] = step.finishReason().wireName();
            stopReasons[choice] = step.stopReason();
        }
    }

    synchronized int completionTokens(int choice) {
        return completionTokens[choice];
    }

    synchronized long totalCompletionTokens() {
        long total = 0;
        for (int tokens : completionTokens) {
            total += tokens;
        }
        return total;
    }

    long promptTokens() {
        return prompts.stream().mapToLong(prompt -> prompt.plan().prompt().length).sum();
    }

    /** The choices so far, with their logprobs or without (the usage record's answer). */
    synchronized List<TextCompletion.Choice> choices(boolean withLogprobs) {
        List<TextCompletion.Choice> choices = new ArrayList<>(texts.length);
        for (int i = 0; i < texts.length; i++) {
            choices.add(new TextCompletion.Choice(i, texts[i].toString(),
                    withLogprobs && logprobs[i] != null ? logprobs[i].written() : null, finishReasons[i], stopReasons[i]));
        }
        return choices;
    }
}
