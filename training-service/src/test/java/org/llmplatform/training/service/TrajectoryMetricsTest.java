package org.llmplatform.training.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.training.service.trajectory.RolloutException;
import org.llmplatform.training.service.trajectory.Trajectory;
import org.llmplatform.training.service.trajectory.TrajectoryGroup;

class TrajectoryMetricsTest {

    private static final RolloutException TIMEOUT = new RolloutException("<class 'TimeoutError'>", "timed out", "Traceback ...");

    @Test
    void everyMetricIsTheMeanOfItsSamplesUnderTheSplitPrefix() {
        Map<String, Object> withNaN = new HashMap<>();
        withNaN.put("turns", 4);
        withNaN.put("nan", null);
        List<TrajectoryGroup> groups = List.of(
                group(List.of(trajectory(1.0, Map.of("correct", true, "turns", 3)), trajectory(0.0, Map.of("correct", false, "turns", 5))),
                        Map.of("difficulty", 2), List.of(TIMEOUT)),
                group(List.of(trajectory(0.5, withNaN)), Map.of("difficulty", 4), List.of()),
                group(List.of(), Map.of("difficulty", 100), List.of(TIMEOUT)));

        Map<String, Double> metrics = TrajectoryMetrics.compute("val", groups);

        assertEquals(Map.of(
                "val/reward", 0.5,
                "val/correct", 0.5,
                "val/turns", 4.0,
                "val/group_metric_difficulty", 3.0,
                "val/reward_std_dev", 0.5,
                "val/exception_rate", 0.4,
                "val/data/step_num_scenarios", 3.0,
                "val/data/step_num_trajectories", 5.0,
                "val/data/step_num_groups_submitted", 3.0,
                "val/data/step_num_groups_trainable", 1.0), metrics);
    }

    @Test
    void theRewardStdDevIsThePopulationStdDevAveragedOverGroupsOfTwoOrMore() {
        List<TrajectoryGroup> groups = List.of(
                group(List.of(trajectory(0, Map.of()), trajectory(2, Map.of()), trajectory(4, Map.of()), trajectory(6, Map.of())), Map.of(), List.of()),
                group(List.of(trajectory(1, Map.of()), trajectory(1, Map.of())), Map.of(), List.of()),
                group(List.of(trajectory(9, Map.of())), Map.of(), List.of()));

        Map<String, Double> metrics = TrajectoryMetrics.compute("train", groups);

        assertEquals((Math.sqrt(5.0) + 0.0) / 2, metrics.get("train/reward_std_dev"), 1e-12);
        assertEquals(1.0, metrics.get("train/data/step_num_groups_trainable"));
    }

    @Test
    void noGroupOfTwoMeansARewardStdDevOfZero() {
        Map<String, Double> metrics = TrajectoryMetrics.compute("train", List.of(group(List.of(trajectory(0.3, Map.of())), Map.of(), List.of())));

        assertEquals(0.0, metrics.get("train/reward_std_dev"));
        assertEquals(0.3, metrics.get("train/reward"));
        assertEquals(0.0, metrics.get("train/exception_rate"));
    }

    private static Trajectory trajectory(double reward, Map<String, Object> metrics) {
        return new Trajectory(List.of(), null, null, reward, null, null, metrics, null, null, null);
    }

    private static TrajectoryGroup group(List<Trajectory> trajectories, Map<String, Object> metrics, List<RolloutException> exceptions) {
        return new TrajectoryGroup(trajectories, exceptions, Map.of(), metrics, List.of());
    }
}
