package org.llmplatform.training;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.llmplatform.llama.ChatMessage;
import org.llmplatform.llama.GeneratedToken;
import org.llmplatform.llama.Generation;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.llama.SamplingParams;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.train.TrainableModel;
import org.llmplatform.training.service.trainer.GrpoTrainer;
import org.llmplatform.training.service.trainer.TrainerSettings;

/**
 * Rollouts for learning tests: stories sampled from stories260K (with an adapter applied) for a prompt, shaped as
 * ART dumps them (a user message, then a Choice whose logprobs carry {@code token_id:N}), rewarded by how often
 * they use one word.
 */
public final class Rollouts {

    /** The model the repository ships (models/README.md), read from the module directory tests run in. */
    public static final Path CHECKPOINT = Path.of("../models/stories260K.bin");
    public static final Path TOKENIZER = Path.of("../models/tok512.bin");
    public static final String PROMPT = "Once upon a time";
    /** The word the reward prefers: common enough that groups of 8 differ, rare enough to leave room. */
    public static final String REWARDED_WORD = "girl";
    private static final Pattern WORD = Pattern.compile("\\b" + REWARDED_WORD + "\\b");

    private static LlamaEngine engine;
    private static GrpoTrainer trainer;

    public static synchronized LlamaEngine engine() {
        if (engine == null) {
            try {
                engine = LlamaEngine.load(CHECKPOINT, TOKENIZER);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return engine;
    }

    /** A trainer as the service builds it (r 8, α 16, seed 3407, learning-rate multiplier 100), rows on 2 threads. */
    public static synchronized GrpoTrainer trainer() {
        if (trainer == null) {
            ExecutorService pool = Executors.newFixedThreadPool(2, task -> {
                Thread thread = new Thread(task, "test-trainer-sequence");
                thread.setDaemon(true);
                return thread;
            });
            trainer = new GrpoTrainer(engine(), TrainableModel.of(engine().model()), new TrainerSettings(8, 16, 3407, 100), pool);
        }
        return trainer;
    }

    /** How many times the story uses the rewarded word, capped at 3. */
    public static double reward(String story) {
        Matcher matcher = WORD.matcher(story.toLowerCase(Locale.ROOT));
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return Math.min(count, 3);
    }

    /** {@code groups} groups of {@code perGroup} stories each, sampled at temperature 1 from the base model + adapter. */
    public static List<Map<String, Object>> sample(LoraAdapter adapter, int groups, int perGroup, int maxTokens, long seed) {
        LlamaEngine adapted = adapter == null ? engine() : engine().withAdapter(adapter);
        int[] prompt = adapted.encodeChat(List.of(new ChatMessage("user", PROMPT)));
        SamplingParams params = SamplingParams.builder().temperature(1f).maxTokens(maxTokens).topLogprobs(0).build();
        Random random = new Random(seed);
        long[] seeds = new long[groups * perGroup];
        for (int i = 0; i < seeds.length; i++) {
            seeds[i] = random.nextLong();
        }
        List<Map<String, Object>> stories = IntStream.range(0, seeds.length).parallel()
                .mapToObj(i -> trajectory(adapted.generate(prompt, params, new Random(seeds[i])))).toList();
        List<Map<String, Object>> result = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            result.add(Trajectories.group(new ArrayList<>(stories.subList(g * perGroup, (g + 1) * perGroup))));
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    public static double meanReward(List<Map<String, Object>> groups) {
        return groups.stream().flatMap(group -> ((List<Map<String, Object>>) group.get("trajectories")).stream())
                .mapToDouble(trajectory -> ((Number) trajectory.get("reward")).doubleValue()).average().orElse(0);
    }

    private static Map<String, Object> trajectory(Generation generation) {
        StringBuilder text = new StringBuilder();
        List<Map<String, Object>> logprobs = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        while (!generation.finished()) {
            GeneratedToken token = generation.next();
            text.append(token.delta());
            ids.add(token.token());
            logprobs.add(Map.of("token", "token_id:" + token.token(), "bytes", List.of(), "logprob", (double) token.logprob(),
                    "top_logprobs", List.of()));
        }
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", "assistant");
        message.put("content", text.toString());
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("finish_reason", generation.finishReason().wireName());
        choice.put("index", 0);
        choice.put("message", message);
        choice.put("logprobs", Map.of("content", logprobs));
        choice.put("token_ids", ids);
        Map<String, Object> trajectory = new LinkedHashMap<>();
        trajectory.put("messages_and_choices", List.of(Map.of("role", "user", "content", PROMPT), choice));
        trajectory.put("reward", reward(text.toString()));
        trajectory.put("metrics", Map.of());
        return trajectory;
    }

    private Rollouts() {
    }
}
