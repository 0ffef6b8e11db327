package org.llmplatform.training.service.trainer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.llmplatform.llama.ChatMessage;
import org.llmplatform.llama.Generation;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.llama.SamplingParams;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.train.TrainableModel;
import org.llmplatform.model.events.SftJobConfig;
import org.llmplatform.training.Rollouts;
import org.llmplatform.training.service.trajectory.SftDataset;
import org.llmplatform.training.service.trajectory.SftExample;

/** Supervised fine-tuning on stories260K: a few steps on one short assistant text pull the model toward it. */
class SftTrainerTest {

    private static final String PROMPT = "Once upon a time";
    private static final String TARGET = " there was a red ball. The ball was very happy.";
    private static ExecutorService pool;
    private static SftTrainer trainer;
    private static LlamaEngine engine;
    private static LoraAdapter initial;

    @BeforeAll
    static void load() {
        engine = Rollouts.engine();
        pool = Executors.newFixedThreadPool(2);
        TrainerSettings settings = new TrainerSettings(8, 16, 3407, 100);
        trainer = new SftTrainer(engine, TrainableModel.of(engine.model()), settings, pool);
        initial = LoraAdapter.identity(engine.config(), settings.loraRank(), settings.loraAlpha(), settings.seed());
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    @Test
    void theLossFallsAndTheGreedyAnswerMovesTowardTheTrainingText() {
        List<SftExample> examples = parse(line(List.of(Map.of("role", "user", "content", PROMPT), Map.of("role", "assistant", "content", TARGET)))
                .repeat(4));
        SftJobConfig config = new SftJobConfig(1, Collections.nCopies(4, 1e-4), SftJobConfig.ASSISTANT_TURNS_ALL);
        Steps steps = new Steps();

        TrainingOutcome outcome = trainer.train(examples, config, initial, steps);

        assertEquals(4, steps.started);
        assertEquals(4, steps.losses.size());
        assertTrue(steps.losses.get(3) < steps.losses.get(0) * 0.8, "the loss falls: " + steps.losses);
        double before = trainer.crossEntropy(examples.get(0), SftJobConfig.ASSISTANT_TURNS_ALL, initial);
        double after = trainer.crossEntropy(examples.get(0), SftJobConfig.ASSISTANT_TURNS_ALL, outcome.adapter());
        assertTrue(after < before * 0.8, "the target's log-likelihood rises: cross-entropy " + before + " -> " + after);
        int[] target = engine.tokenizer().encode(TARGET, false, false);
        int matchedBefore = leadingMatches(greedy(initial, target.length), target);
        int matchedAfter = leadingMatches(greedy(outcome.adapter(), target.length), target);
        assertTrue(matchedAfter > matchedBefore, "the greedy answer reproduces more of the target: " + matchedBefore + " -> "
                + matchedAfter + " of " + target.length + " tokens");
    }

    @Test
    void onlyTheLastAssistantTurnIsTrainedWhenAskedSo() {
        SftExample example = parse(line(List.of(Map.of("role", "user", "content", PROMPT),
                Map.of("role", "assistant", "content", " there was a dog."),
                Map.of("role", "user", "content", "Then"),
                Map.of("role", "assistant", "content", TARGET)))).get(0);

        double all = trainer.crossEntropy(example, SftJobConfig.ASSISTANT_TURNS_ALL, initial);
        double last = trainer.crossEntropy(example, SftJobConfig.ASSISTANT_TURNS_LAST, initial);

        assertTrue(all != last, "the two choices score different tokens");
        SftJobConfig lastOnly = new SftJobConfig(1, List.of(1e-4), SftJobConfig.ASSISTANT_TURNS_LAST);
        Steps steps = new Steps();
        trainer.train(List.of(example), lastOnly, initial, steps);
        assertEquals(engine.tokenizer().encode(TARGET, false, false).length, steps.trainableTokens.get(0).intValue(),
                "only the last turn's tokens are trained on");
    }

    private static int[] greedy(LoraAdapter adapter, int tokens) {
        int[] prompt = engine.encodeChat(List.of(new ChatMessage("user", PROMPT)));
        Generation generation = engine.withAdapter(adapter).generate(prompt,
                SamplingParams.builder().temperature(0).maxTokens(tokens).ignoreEos(true).build(), new Random(1));
        int[] out = new int[tokens];
        int n = 0;
        while (!generation.finished() && n < tokens) {
            out[n++] = generation.next().token();
        }
        return out;
    }

    private static int leadingMatches(int[] generated, int[] target) {
        int n = 0;
        while (n < target.length && generated[n] == target[n]) {
            n++;
        }
        return n;
    }

    private static String line(List<Map<String, String>> messages) {
        try {
            return new ObjectMapper().writeValueAsString(Map.of("messages", messages)) + "\n";
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<SftExample> parse(String jsonl) {
        return SftDataset.parse(jsonl.getBytes(StandardCharsets.UTF_8), new ObjectMapper());
    }

    private static final class Steps implements StepListener {
        int started = -1;
        final List<Double> losses = new ArrayList<>();
        final List<Double> trainableTokens = new ArrayList<>();

        @Override
        public void started(int numSequences) {
            started = numSequences;
        }

        @Override
        public void gradientStep(Map<String, Double> metrics) {
            losses.add(metrics.get("loss"));
            trainableTokens.add(metrics.get("num_trainable_tokens"));
        }

        @Override
        public boolean cancelled() {
            return false;
        }
    }
}
