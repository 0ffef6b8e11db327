package org.llmplatform.training.service.trainer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.training.service.trajectory.Trajectory;
import org.llmplatform.training.service.trajectory.TrajectoryGroup;

class GroupAdvantagesTest {

    private static TrajectoryGroup group(double... rewards) {
        List<Trajectory> trajectories = java.util.Arrays.stream(rewards)
                .mapToObj(reward -> new Trajectory(List.of(), null, null, reward, null, null, Map.of(), null, null, null)).toList();
        return new TrajectoryGroup(trajectories, List.of(), Map.of(), Map.of(), List.of());
    }

    @Test
    void advantagesAreRewardMinusTheGroupMeanOverThePopulationStd() {
        GroupAdvantages advantages = GroupAdvantages.of(List.of(group(1, 0, 0, 1)), true);
        List<GroupAdvantages.ScoredTrajectory> scored = advantages.trainableGroups().get(0);
        assertEquals(0.5 / (0.5 + 1e-6), scored.get(0).advantage(), 1e-12);
        assertEquals(-0.5 / (0.5 + 1e-6), scored.get(1).advantage(), 1e-12);
        assertEquals(0.5, advantages.rewardStdDev(), 1e-12);
    }

    @Test
    void unscaledAdvantagesKeepTheRewardScale() {
        GroupAdvantages advantages = GroupAdvantages.of(List.of(group(3, 1)), false);
        assertEquals(1.0, advantages.trainableGroups().get(0).get(0).advantage(), 1e-12);
        assertEquals(-1.0, advantages.trainableGroups().get(0).get(1).advantage(), 1e-12);
    }

    @Test
    void zeroAdvantageTrajectoriesAndZeroVarianceGroupsAreDropped() {
        GroupAdvantages advantages = GroupAdvantages.of(List.of(group(0.5, 0.5, 0.5), group(1, 2, 3), group(7)), true);
        assertEquals(1, advantages.trainableGroups().size());
        assertEquals(2, advantages.trainableGroups().get(0).size(), "the trajectory at the mean has advantage 0");
        assertEquals(1, advantages.trainableGroups().get(0).get(0).group());
        assertEquals(3, advantages.groupsSubmitted());
        assertEquals(7, advantages.trajectories());
        assertEquals((1.5 + 6 + 7) / 7, advantages.rewardMean(), 1e-12);
        assertEquals(Math.sqrt(2.0 / 3) / 2, advantages.rewardStdDev(), 1e-12, "mean std over the groups of at least 2");
    }
}
