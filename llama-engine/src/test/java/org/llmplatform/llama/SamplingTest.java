package org.llmplatform.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SamplingTest {

    private static final String GOLDEN = ", a little girl was very happy.";

    private final LlamaEngine engine = SharedModels.stories260K();
    private final int[] prompt = engine.tokenizer().encode("Once upon a time", true);

    private Generation generate(SamplingParams params, long seed) {
        return engine.generate(prompt, params, new Random(seed));
    }

    private String text(SamplingParams params, long seed) {
        return SharedModels.run(generate(params, seed));
    }

    private List<Integer> tokens(SamplingParams params, long seed) {
        Generation generation = generate(params, seed);
        List<Integer> tokens = new ArrayList<>();
        while (!generation.finished()) {
            tokens.add(generation.next().token());
        }
        return tokens;
    }

    @Test
    void theSameSeedGivesTheSameSample() {
        SamplingParams params = SamplingParams.builder().temperature(1.2f).maxTokens(30).build();
        assertEquals(text(params, 42), text(params, 42));
        assertNotEquals(text(params, 42), text(params, 43));
    }

    @Test
    void topKOfOneIsGreedy() {
        SamplingParams params = SamplingParams.builder().temperature(1.5f).topK(1).maxTokens(12).build();
        assertTrue(text(params, 7).startsWith(GOLDEN), text(params, 7));
    }

    @Test
    void aTinyTopPOrAHighMinPKeepsOnlyTheLikeliestToken() {
        assertTrue(text(SamplingParams.builder().temperature(1f).topP(0.01f).maxTokens(12).build(), 3).startsWith(GOLDEN));
        assertTrue(text(SamplingParams.builder().temperature(1f).minP(0.99f).maxTokens(12).build(), 3).startsWith(GOLDEN));
    }

    @Test
    void aStopStringEndsTheOutputBeforeIt() {
        Generation generation = generate(SharedModels.greedy(60).stop(List.of(" girl")).build(), 1);
        assertEquals(", a little", SharedModels.run(generation));
        assertEquals(FinishReason.STOP, generation.finishReason());
        assertEquals(" girl", generation.stopReason());
    }

    @Test
    void includeStopStrInOutputKeepsTheStopString() {
        SamplingParams params = SharedModels.greedy(60).stop(List.of(" girl")).includeStopStrInOutput(true).build();
        assertEquals(", a little girl", text(params, 1));
    }

    @Test
    void aStopTokenIdEndsTheOutputAndIsReported() {
        int comma = engine.tokenizer().encode(",", false, false)[0];
        int a = tokens(SharedModels.greedy(10).build(), 1).get(1);
        Generation generation = generate(SharedModels.greedy(60).stopTokenIds(Set.of(a)).build(), 1);
        assertEquals(",", SharedModels.run(generation));
        assertEquals(a, generation.stopReason());
        assertEquals(2, generation.completionTokens());
        assertEquals(comma, tokens(SharedModels.greedy(1).build(), 1).get(0));
    }

    @Test
    void eosEndsTheOutputUnlessIgnored() {
        Map<Integer, Float> preferEos = Map.of(Tokenizer.EOS, 100f);
        Generation natural = generate(SharedModels.greedy(20).logitBias(preferEos).build(), 1);
        assertEquals("", SharedModels.run(natural));
        assertEquals(FinishReason.STOP, natural.finishReason());
        assertNull(natural.stopReason());
        assertEquals(1, natural.completionTokens());
        Generation ignoring = generate(SharedModels.greedy(5).logitBias(preferEos).ignoreEos(true).build(), 1);
        SharedModels.run(ignoring);
        assertEquals(FinishReason.LENGTH, ignoring.finishReason());
        assertEquals(5, ignoring.completionTokens());
    }

    @Test
    void minTokensHoldsBackEos() {
        SamplingParams params = SharedModels.greedy(20).logitBias(Map.of(Tokenizer.EOS, 100f)).minTokens(5).build();
        Generation generation = generate(params, 1);
        String text = SharedModels.run(generation);
        assertEquals(FinishReason.STOP, generation.finishReason());
        assertEquals(6, generation.completionTokens(), text);
    }

    @Test
    void theContextBoundsTheOutput() {
        Generation generation = generate(SharedModels.greedy(10_000).ignoreEos(true).build(), 1);
        SharedModels.run(generation);
        assertEquals(FinishReason.LENGTH, generation.finishReason());
        assertEquals(512, generation.promptTokens() + generation.completionTokens());
    }

    @Test
    void logitBiasAndAllowedTokenIdsSteerTheChoice() {
        int the = engine.tokenizer().encode("the", false, false)[0];
        assertEquals(List.of(the, the), tokens(SharedModels.greedy(2).logitBias(Map.of(the, 100f)).build(), 1));
        assertEquals(List.of(the, the), tokens(SharedModels.greedy(2).allowedTokenIds(Set.of(the)).build(), 1));
    }

    @Test
    void badWordsAreNeverGenerated() {
        String text = text(SharedModels.greedy(40).badWords(List.of("girl")).build(), 1);
        assertTrue(text.startsWith(", a little"), text);
        assertFalse(text.contains("girl"), text);
    }

    @Test
    void penaltiesChangeARepetitiveContinuation() {
        String plain = text(SharedModels.greedy(80).build(), 1);
        assertNotEquals(plain, text(SharedModels.greedy(80).frequencyPenalty(2f).build(), 1));
        assertNotEquals(plain, text(SharedModels.greedy(80).presencePenalty(2f).build(), 1));
        assertNotEquals(plain, text(SharedModels.greedy(80).repetitionPenalty(2f).build(), 1));
    }

    @Test
    void logprobsComeWithTheRequestedAlternatives() {
        Generation generation = generate(SharedModels.greedy(3).topLogprobs(2).build(), 1);
        GeneratedToken first = generation.next();
        assertEquals(2, first.topLogprobs().size());
        assertEquals(first.token(), first.topLogprobs().get(0).token());
        assertEquals(first.logprob(), first.topLogprobs().get(0).logprob());
        assertTrue(first.logprob() < 0f && first.logprob() > -9999f);
    }

    @Test
    void guidedChoiceProducesExactlyOneOfTheChoices() {
        Pattern choice = Pattern.compile(Pattern.quote(" dog") + "|" + Pattern.quote(" cat"));
        for (long seed = 0; seed < 3; seed++) {
            Generation generation = generate(SamplingParams.builder().temperature(1f).maxTokens(20).constraint(choice).build(), seed);
            String text = SharedModels.run(generation);
            assertTrue(text.equals(" dog") || text.equals(" cat"), text);
            assertEquals(FinishReason.STOP, generation.finishReason());
        }
    }

    @Test
    void guidedRegexConstrainsTheShape() {
        String text = text(SharedModels.greedy(20).constraint(Pattern.compile("[0-9]{3}")).build(), 1);
        assertTrue(text.matches("[0-9]{3}"), text);
    }
}
