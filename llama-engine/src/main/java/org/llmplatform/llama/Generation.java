package org.llmplatform.llama;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.stream.IntStream;

/**
 * Decodes one sequence token by token ({@link #next()}), applying the request's sampling, stop and
 * guided-decoding rules. Not thread-safe; callers step it from one worker at a time, which lets many
 * generations interleave fairly on a shared pool.
 */
public final class Generation {

    static final float LOGPROB_FLOOR = -9999f;

    private final InferenceSession session;
    private final Tokenizer tokenizer;
    private final SamplingParams params;
    private final int[] prompt;
    private final LogitsProcessor processor;
    private final Sampler sampler;
    private final int holdBack;
    private final List<Integer> output = new ArrayList<>();
    private final Utf8Accumulator utf8 = new Utf8Accumulator();
    private final StringBuilder text = new StringBuilder();
    private int emitted;
    private int position;
    private int lastToken;
    private FinishReason finishReason;
    private Object stopReason;

    /** {@code random} is the per-sequence source of randomness (seeded by the caller for reproducibility). */
    public Generation(LlamaModel model, Tokenizer tokenizer, int[] prompt, SamplingParams params, Random random) {
        if (prompt.length == 0 || prompt.length >= model.config().seqLen()) {
            throw new IllegalArgumentException("prompt of " + prompt.length + " tokens does not fit a context of "
                    + model.config().seqLen());
        }
        this.session = model.newSession();
        this.tokenizer = tokenizer;
        this.params = params;
        this.prompt = prompt.clone();
        this.processor = new LogitsProcessor(params, tokenizer, prompt);
        this.sampler = new Sampler(params, random);
        this.holdBack = params.includeStopStrInOutput()
                ? 0 : params.stop().stream().mapToInt(String::length).max().orElse(1) - 1;
    }

    public boolean finished() {
        return finishReason != null;
    }

    public FinishReason finishReason() {
        return finishReason;
    }

    /** The stop string or stop token id that ended the sequence; null for EOS and length. */
    public Object stopReason() {
        return stopReason;
    }

    public int promptTokens() {
        return prompt.length;
    }

    public int completionTokens() {
        return output.size();
    }

    /** Samples the next token; the first call also runs the prompt through the model. */
    public GeneratedToken next() {
        if (finished()) {
            throw new IllegalStateException("the generation already finished");
        }
        float[] logits = advance().clone();
        processor.apply(logits, output);
        if (params.constraint() != null) {
            constrain(logits);
        }
        if (!LogitsProcessor.anyAllowed(logits)) {
            return finishWithoutToken();
        }
        float[] logprobs = params.wantsLogprobs() ? logSoftmax(logits) : null;
        int token = sampler.sample(logits);
        output.add(token);
        processor.accept(token);
        lastToken = token;
        String delta = release(token);
        return new GeneratedToken(token, delta, logprobs == null ? 0f : Math.max(LOGPROB_FLOOR, logprobs[token]),
                logprobs == null ? List.of() : top(logprobs, params.topLogprobs()));
    }

    private float[] advance() {
        if (position == 0) {
            for (int i = 0; i < prompt.length - 1; i++) {
                session.prefill(prompt[i], i);
            }
            position = prompt.length;
            lastToken = prompt[prompt.length - 1];
            return session.forward(lastToken, position - 1);
        }
        position++;
        return session.forward(lastToken, position - 1);
    }

    /** Masks every token that would take the output off the constraint; EOS only once it is complete. */
    private void constrain(float[] logits) {
        String sofar = text.toString();
        boolean complete = params.constraint().matcher(sofar).matches();
        int previous = output.isEmpty() ? prompt[prompt.length - 1] : output.get(output.size() - 1);
        for (int token = 0; token < logits.length; token++) {
            if (logits[token] == Float.NEGATIVE_INFINITY) {
                continue;
            }
            boolean allowed = token == Tokenizer.EOS ? complete
                    : mayContinue(sofar + new String(tokenizer.decode(previous, token), StandardCharsets.UTF_8));
            if (!allowed) {
                logits[token] = Float.NEGATIVE_INFINITY;
            }
        }
    }

    private boolean mayContinue(String candidate) {
        Matcher matcher = params.constraint().matcher(candidate);
        return matcher.matches() || matcher.hitEnd();
    }

    private GeneratedToken finishWithoutToken() {
        finishReason = FinishReason.STOP;
        return new GeneratedToken(Tokenizer.EOS, flushAll(), 0f, List.of());
    }

    /** Ends the sequence where a rule says so and returns the text this token makes safe to show. */
    private String release(int token) {
        boolean eos = token == Tokenizer.EOS && !params.ignoreEos();
        boolean stopToken = params.stopTokenIds().contains(token);
        int previous = output.size() > 1 ? output.get(output.size() - 2) : prompt[prompt.length - 1];
        if (!eos && (!stopToken || params.includeStopStrInOutput())) {
            text.append(utf8.append(tokenizer.decode(previous, token)));
        }
        if (eos || stopToken) {
            finishReason = FinishReason.STOP;
            stopReason = stopToken ? Integer.valueOf(token) : null;
            return flushAll();
        }
        if (output.size() >= params.minTokens()) {
            String stopped = findStopString();
            if (stopped != null) {
                return cutAtStop(stopped);
            }
        }
        if (params.constraint() != null && params.constraint().matcher(text).matches() && !extensible()) {
            finishReason = FinishReason.STOP;
            return flushAll();
        }
        if (output.size() >= params.maxTokens() || position + 1 >= session.config().seqLen()) {
            finishReason = FinishReason.LENGTH;
            return flushAll();
        }
        int safe = Math.max(emitted, text.length() - holdBack);
        String delta = text.substring(emitted, safe);
        emitted = safe;
        return delta;
    }

    /** Whether some token could still extend a completed constrained output. */
    private boolean extensible() {
        String sofar = text.toString();
        return IntStream.range(Tokenizer.EOS + 1, tokenizer.vocabSize())
                .anyMatch(token -> params.constraint().matcher(
                        sofar + new String(tokenizer.decode(lastToken, token), StandardCharsets.UTF_8)).hitEnd());
    }

    private String findStopString() {
        for (String stop : params.stop()) {
            int from = Math.max(0, emitted - stop.length());
            if (text.indexOf(stop, from) >= 0) {
                return stop;
            }
        }
        return null;
    }

    private String cutAtStop(String stop) {
        int at = text.indexOf(stop, Math.max(0, emitted - stop.length()));
        int end = params.includeStopStrInOutput() ? at + stop.length() : at;
        finishReason = FinishReason.STOP;
        stopReason = stop;
        text.setLength(Math.max(end, emitted));
        String delta = text.substring(emitted);
        emitted = text.length();
        return delta;
    }

    private String flushAll() {
        text.append(utf8.flush());
        String delta = text.substring(emitted);
        emitted = text.length();
        return delta;
    }

    static List<TokenLogprob> top(float[] logprobs, int count) {
        if (count <= 0) {
            return List.of();
        }
        return IntStream.range(0, logprobs.length).boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> logprobs[i]).reversed())
                .limit(count)
                .map(i -> new TokenLogprob(i, Math.max(LOGPROB_FLOOR, logprobs[i])))
                .toList();
    }

    static float[] logSoftmax(float[] logits) {
        float max = logits[Sampler.argmax(logits)];
        double sum = 0;
        for (float logit : logits) {
            sum += Math.exp(logit - max);
        }
        float logSum = (float) Math.log(sum) + max;
        float[] out = new float[logits.length];
        for (int i = 0; i < logits.length; i++) {
            out[i] = logits[i] - logSum;
        }
        return out;
    }
}
