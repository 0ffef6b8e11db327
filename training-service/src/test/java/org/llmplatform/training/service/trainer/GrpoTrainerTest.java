package org.llmplatform.training.service.trainer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.model.events.TrainingJobConfig;
import org.llmplatform.training.Rollouts;
import org.llmplatform.training.service.trajectory.TrajectoryGroup;

class GrpoTrainerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    static GrpoTrainer trainer() {
        return Rollouts.trainer();
    }

    static TrainingJobConfig config(String lossFn, boolean precalculate, double klCoef) {
        boolean ppo = lossFn.equals("ppo");
        return new TrainingJobConfig(5e-6, precalculate, 0, lossFn, ppo ? 0.2 : 1.0, ppo ? 0.2 : 4.0, "token", null, false, null, true,
                false, klCoef, null, "current_learner", null, null, 1024, 0, null, false, false, null);
    }

    static List<TrajectoryGroup> parse(List<Map<String, Object>> groups) {
        try {
            return JSON.readerForListOf(TrajectoryGroup.class).readValue(JSON.writeValueAsBytes(groups));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The sampled groups with rewards 0, 1, 0, 1, … in each group, so every group has signal. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> alternating(List<Map<String, Object>> groups) {
        for (Map<String, Object> group : groups) {
            List<Map<String, Object>> trajectories = (List<Map<String, Object>>) group.get("trajectories");
            for (int i = 0; i < trajectories.size(); i++) {
                trajectories.get(i).put("reward", (double) (i % 2));
            }
        }
        return groups;
    }

    /** Records what a trainer reports. */
    static final class Recorder implements StepListener {
        final List<Integer> started = new ArrayList<>();
        final List<Map<String, Double>> steps = new ArrayList<>();
        int cancelAfterSteps = Integer.MAX_VALUE;

        @Override
        public void started(int numSequences) {
            started.add(numSequences);
        }

        @Override
        public void gradientStep(Map<String, Double> metrics) {
            steps.add(metrics);
        }

        @Override
        public boolean cancelled() {
            return steps.size() >= cancelAfterSteps;
        }
    }

    @Test
    void theSameTrajectoriesAndSeedGiveTheSameCheckpointBytes() {
        List<TrajectoryGroup> groups = parse(alternating(Rollouts.sample(null, 2, 4, 24, 1)));
        LoraAdapter parent = trainer().initialAdapter();
        TrainingOutcome first = trainer().train(groups, config("cispo", false, 0), parent, 0, new Recorder());
        TrainingOutcome second = trainer().train(groups, config("cispo", false, 0), parent, 0, new Recorder());
        assertArrayEquals(first.adapter().safetensors(), second.adapter().safetensors());
        assertFalse(Arrays.equals(parent.safetensors(), first.adapter().safetensors()));
    }

    @Test
    void oneGradientStepPerTrainableGroupWithTheNumericMetricsOfTheSpec() {
        List<Map<String, Object>> sampled = new ArrayList<>(alternating(Rollouts.sample(null, 2, 4, 24, 2)));
        Map<String, Object> equalRewards = Rollouts.sample(null, 1, 3, 8, 3).get(0);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> same = (List<Map<String, Object>>) equalRewards.get("trajectories");
        same.forEach(trajectory -> trajectory.put("reward", 1.0));
        sampled.add(equalRewards);
        List<TrajectoryGroup> groups = parse(sampled);
        long trainableGroups = 2;
        Recorder recorder = new Recorder();

        TrainingOutcome outcome = trainer().train(groups, config("ppo", true, 0.1), trainer().initialAdapter(), 0, recorder);

        assertEquals(List.of((int) trainableGroups), recorder.started);
        assertEquals(trainableGroups, recorder.steps.size());
        Map<String, Double> metrics = recorder.steps.get(0);
        for (String key : List.of("step", "loss", "policy_loss", "kl_div", "grad_norm", "entropy", "learning_rate", "num_trainable_tokens",
                "reward", "reward_std_dev", "num_groups_submitted", "num_groups_trainable", "num_trajectories")) {
            assertTrue(metrics.containsKey(key) && Double.isFinite(metrics.get(key)), key + " in " + metrics);
        }
        assertEquals(1.0, metrics.get("step"));
        assertEquals(5e-4, metrics.get("learning_rate"), 1e-12);
        assertEquals(3.0, metrics.get("num_groups_submitted"));
        assertEquals(11.0, metrics.get("num_trajectories"));
        assertEquals((double) trainableGroups, outcome.metrics().get("num_gradient_steps"));
    }

    @Test
    void groupsWithoutVarianceTrainNothingAndKeepTheParentAdapter() {
        List<Map<String, Object>> sampled = Rollouts.sample(null, 2, 3, 8, 4);
        for (Map<String, Object> group : sampled) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> trajectories = (List<Map<String, Object>>) group.get("trajectories");
            trajectories.forEach(trajectory -> trajectory.put("reward", 0.5));
        }
        Recorder recorder = new Recorder();
        LoraAdapter parent = trainer().initialAdapter();

        TrainingOutcome outcome = trainer().train(parse(sampled), config("cispo", false, 0), parent, 0, recorder);

        assertEquals(List.of(0), recorder.started);
        assertTrue(recorder.steps.isEmpty());
        assertSame(parent, outcome.adapter());
        assertEquals(0.0, outcome.metrics().get("num_groups_trainable"));
    }

    @Test
    void aCancelledJobStopsBetweenRows() {
        List<TrajectoryGroup> groups = parse(alternating(Rollouts.sample(null, 4, 8, 16, 5)));
        Recorder recorder = new Recorder();
        recorder.cancelAfterSteps = 1;
        assertThrows(JobCancelledException.class,
                () -> trainer().train(groups, config("cispo", false, 0), trainer().initialAdapter(), 0, recorder));
        assertEquals(1, recorder.steps.size());
    }
}
