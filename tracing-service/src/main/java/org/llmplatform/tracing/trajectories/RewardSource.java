package org.llmplatform.tracing.trajectories;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import org.llmplatform.support.error.ApiException;

/**
 * Where a call's reward comes from: its latest 👍 or 👎 reaction ({@code reaction}), or the latest feedback of one
 * type ({@code feedback:<feedback_type>}: a human annotation, a scorer's result, any feedback whose payload is or
 * holds a number or a boolean).
 */
record RewardSource(String feedbackType, boolean reaction) {

    static final String REACTION_TYPE = "wandb.reaction.1";
    private static final String FEEDBACK_PREFIX = "feedback:";
    /** Where a payload keeps its number: itself, then these fields, then these fields of its {@code output}. */
    private static final List<String> VALUE_FIELDS = List.of("value", "score", "output", "correct", "rating");

    static Optional<RewardSource> parse(String reward) {
        if (reward == null || reward.isBlank()) {
            return Optional.empty();
        }
        if (reward.equals("reaction")) {
            return Optional.of(new RewardSource(REACTION_TYPE, true));
        }
        if (reward.startsWith(FEEDBACK_PREFIX) && reward.length() > FEEDBACK_PREFIX.length()) {
            return Optional.of(new RewardSource(reward.substring(FEEDBACK_PREFIX.length()), false));
        }
        throw ApiException.invalidField("value_error", List.of("body", "reward"),
                "reward is 'reaction' or 'feedback:<feedback_type>', got '" + reward + "'", reward);
    }

    /** The reward of a call with these feedback rows (oldest first), or why it has none. */
    Reward of(JsonNode feedback) {
        for (int i = feedback.size() - 1; i >= 0; i--) {
            JsonNode row = feedback.get(i);
            if (!feedbackType.equals(row.path("feedback_type").asText())) {
                continue;
            }
            if (reaction) {
                String alias = row.path("payload").path("detoned_alias").asText();
                if (alias.equals(":thumbs_up:")) {
                    return Reward.of(1.0);
                }
                if (alias.equals(":thumbs_down:")) {
                    return Reward.of(0.0);
                }
                continue;
            }
            Optional<Double> value = number(row.path("payload"));
            return value.map(Reward::of).orElseGet(() -> Reward.none("its latest " + feedbackType + " feedback holds no number"));
        }
        return Reward.none(reaction ? "it has no 👍 or 👎 reaction" : "it has no " + feedbackType + " feedback");
    }

    private static Optional<Double> number(JsonNode payload) {
        if (payload.isNumber()) {
            return Optional.of(payload.doubleValue());
        }
        if (payload.isBoolean()) {
            return Optional.of(payload.booleanValue() ? 1.0 : 0.0);
        }
        if (payload.isObject()) {
            for (String field : VALUE_FIELDS) {
                Optional<Double> value = number(payload.path(field));
                if (value.isPresent()) {
                    return value;
                }
            }
        }
        return Optional.empty();
    }

    /** A reward, or (value null) why a call has none. */
    record Reward(Double value, String missing) {
        static Reward of(double value) {
            return new Reward(value, null);
        }

        static Reward none(String why) {
            return new Reward(null, why);
        }
    }
}
