package org.llmplatform.training.service.trainer;

import java.util.ArrayList;
import java.util.List;
import org.llmplatform.training.service.trajectory.Trajectory;
import org.llmplatform.training.service.trajectory.TrajectoryGroup;

/**
 * GRPO advantages per group (docs/training-service.md#advantages): reward minus the group's mean, divided by (population std + 1e-6)
 * when rewards are scaled; trajectories whose advantage is exactly 0 are dropped, so a group whose rewards are
 * all equal contributes nothing. Exceptions are not trajectories and do not enter.
 */
public record GroupAdvantages(List<List<ScoredTrajectory>> trainableGroups, double rewardMean, double rewardStdDev,
        int groupsSubmitted, int trajectories) {

    /** A trajectory with its advantage; {@code group} is its index among the submitted groups. */
    public record ScoredTrajectory(int group, Trajectory trajectory, double advantage) {
    }

    public static GroupAdvantages of(List<TrajectoryGroup> groups, boolean scaleRewards) {
        List<List<ScoredTrajectory>> trainable = new ArrayList<>();
        double rewardSum = 0;
        int trajectoryCount = 0;
        double stdSum = 0;
        int stdGroups = 0;
        for (int g = 0; g < groups.size(); g++) {
            List<Trajectory> members = groups.get(g).trajectoriesOrEmpty();
            if (members.isEmpty()) {
                continue;
            }
            double mean = 0;
            for (Trajectory trajectory : members) {
                mean += trajectory.rewardOrZero();
            }
            rewardSum += mean;
            trajectoryCount += members.size();
            mean /= members.size();
            double variance = 0;
            for (Trajectory trajectory : members) {
                double d = trajectory.rewardOrZero() - mean;
                variance += d * d;
            }
            double std = Math.sqrt(variance / members.size());
            if (members.size() >= 2) {
                stdSum += std;
                stdGroups++;
            }
            List<ScoredTrajectory> scored = new ArrayList<>();
            for (Trajectory trajectory : members) {
                double advantage = trajectory.rewardOrZero() - mean;
                if (scaleRewards) {
                    advantage /= std + 1e-6;
                }
                if (advantage != 0) {
                    scored.add(new ScoredTrajectory(g, trajectory, advantage));
                }
            }
            if (!scored.isEmpty()) {
                trainable.add(scored);
            }
        }
        return new GroupAdvantages(trainable, trajectoryCount == 0 ? 0 : rewardSum / trajectoryCount,
                stdGroups == 0 ? 0 : stdSum / stdGroups, groups.size(), trajectoryCount);
    }
}
