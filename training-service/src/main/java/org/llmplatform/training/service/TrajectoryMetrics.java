package org.llmplatform.training.service;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.training.service.trajectory.Trajectory;
import org.llmplatform.training.service.trajectory.TrajectoryGroup;

/**
 * ART's per-split "log trajectories and calculate metrics" (docs/training-service.md#trajectory-metrics), every key prefixed {@code split/}:
 * the mean reward, the mean of every trajectory metric (booleans as 0/1), {@code group_metric_<key>}
 * means over groups with trajectories, {@code reward_std_dev} as the mean population standard deviation
 * of rewards over groups of two or more, {@code exception_rate}, and the {@code data/step_*} counts.
 * Unlike ART, whose exception rate is always 0 because it only iterates trajectories, each entry of
 * {@code group.exceptions} counts as a failed rollout: rate = exceptions / (trajectories + exceptions).
 * Values that are not finite (null where Python had NaN) are dropped.
 */
public final class TrajectoryMetrics {

    public static Map<String, Double> compute(String split, List<TrajectoryGroup> groups) {
        Map<String, List<Double>> samples = new LinkedHashMap<>();
        List<Double> groupStdDevs = new ArrayList<>();
        int trajectories = 0;
        int exceptions = 0;
        int trainableGroups = 0;
        for (TrajectoryGroup group : groups) {
            List<Trajectory> members = group.trajectoriesOrEmpty();
            for (Trajectory trajectory : members) {
                add(samples, "exception_rate", 0.0);
                add(samples, "reward", trajectory.rewardOrZero());
                trajectory.metricsOrEmpty().forEach((name, value) -> add(samples, name, asDouble(value)));
            }
            for (int i = 0; i < group.exceptionsOrEmpty().size(); i++) {
                add(samples, "exception_rate", 1.0);
            }
            if (!members.isEmpty()) {
                group.metricsOrEmpty().forEach((name, value) -> add(samples, "group_metric_" + name, asDouble(value)));
            }
            if (members.size() >= 2) {
                groupStdDevs.add(populationStdDev(members));
            }
            if (hasRewardVariance(members)) {
                trainableGroups++;
            }
            trajectories += members.size();
            exceptions += group.exceptionsOrEmpty().size();
        }
        Map<String, Double> metrics = new LinkedHashMap<>();
        samples.forEach((name, values) -> metrics.put(split + "/" + name, mean(values)));
        metrics.put(split + "/reward_std_dev", groupStdDevs.isEmpty() ? 0.0 : mean(groupStdDevs));
        metrics.put(split + "/data/step_num_scenarios", (double) groups.size());
        metrics.put(split + "/data/step_num_trajectories", (double) (trajectories + exceptions));
        metrics.put(split + "/data/step_num_groups_submitted", (double) groups.size());
        metrics.put(split + "/data/step_num_groups_trainable", (double) trainableGroups);
        metrics.values().removeIf(value -> !Double.isFinite(value));
        return metrics;
    }

    private static void add(Map<String, List<Double>> samples, String name, Double value) {
        if (value != null && Double.isFinite(value)) {
            samples.computeIfAbsent(name, unused -> new ArrayList<>()).add(value);
        }
    }

    private static Double asDouble(Object value) {
        if (value instanceof Boolean flag) {
            return flag ? 1.0 : 0.0;
        }
        return value instanceof Number number ? number.doubleValue() : null;
    }

    private static double populationStdDev(List<Trajectory> members) {
        double mean = members.stream().mapToDouble(Trajectory::rewardOrZero).average().orElse(0.0);
        double variance = members.stream().mapToDouble(t -> (t.rewardOrZero() - mean) * (t.rewardOrZero() - mean)).sum() / members.size();
        return Math.sqrt(variance);
    }

    private static boolean hasRewardVariance(List<Trajectory> members) {
        return members.stream().mapToDouble(Trajectory::rewardOrZero).distinct().count() > 1;
    }

    private static double mean(List<Double> values) {
        double sum = 0;
        for (double value : values) {
            sum += value;
        }
        return sum / values.size();
    }

    private TrajectoryMetrics() {
    }
}
