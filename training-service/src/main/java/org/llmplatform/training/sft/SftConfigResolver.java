package org.llmplatform.training.sft;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.llmplatform.model.errors.ValidationIssue;
import org.llmplatform.model.events.SftJobConfig;

/**
 * Resolves ART's {@code SFTTrainingConfig} into what a trainer runs, with ART's defaults: {@code batch_size}
 * {@code "auto"} or unset is 2 (the serverless backend's default), {@code learning_rate} unset is 5e-5
 * ({@code TrainSFTConfig}'s), {@code assistant_turns} unset is {@code "all"}. A single learning rate applies to every
 * batch; a list must hold one rate per batch, as ART's {@code train_sft_from_file} schedules them.
 */
final class SftConfigResolver {

    static final int DEFAULT_BATCH_SIZE = 2;
    static final double DEFAULT_LEARNING_RATE = 5e-5;

    private SftConfigResolver() {
    }

    /** What is wrong with the config before the file is read (types, ranges, the assistant turns). */
    static List<ValidationIssue> check(SftTrainingConfig config) {
        List<ValidationIssue> issues = new ArrayList<>();
        if (config == null) {
            return issues;
        }
        JsonNode batch = config.batchSize();
        if (present(batch) && !(batch.isTextual() && batch.asText().equals("auto")) && !(batch.canConvertToInt() && batch.isIntegralNumber()
                && batch.asInt() >= 1)) {
            issues.add(issue("batch_size", "Input should be a positive integer or 'auto'", batch));
        }
        JsonNode rate = config.learningRate();
        if (present(rate)) {
            boolean valid = rate.isArray() ? rate.size() > 0 && allPositiveNumbers(rate) : positiveNumber(rate);
            if (!valid) {
                issues.add(issue("learning_rate", "Input should be a positive number or a non-empty list of positive numbers", rate));
            }
        }
        JsonNode turns = config.assistantTurns();
        if (present(turns) && !(turns.isTextual() && (turns.asText().equals(SftJobConfig.ASSISTANT_TURNS_ALL)
                || turns.asText().equals(SftJobConfig.ASSISTANT_TURNS_LAST)))) {
            issues.add(new ValidationIssue("literal_error", List.of("body", "config", "assistant_turns"), "Input should be 'all' or 'last'",
                    turns.isTextual() ? turns.asText() : turns.toString()));
        }
        return issues;
    }

    /** The trainer's config for a checked config and a file of {@code examples} examples; a rate list of the wrong length is refused. */
    static SftJobConfig resolve(SftTrainingConfig config, int examples) {
        JsonNode batch = config == null ? null : config.batchSize();
        int batchSize = present(batch) && batch.isIntegralNumber() ? batch.asInt() : DEFAULT_BATCH_SIZE;
        int batches = (examples + batchSize - 1) / batchSize;
        JsonNode rate = config == null ? null : config.learningRate();
        List<Double> rates;
        if (present(rate) && rate.isArray()) {
            if (rate.size() != batches) {
                throw org.llmplatform.support.error.ApiException.invalid(List.of(issue("learning_rate", "Value error, " + rate.size()
                        + " learning rates for " + batches + " batches (" + examples + " examples, batch_size " + batchSize
                        + "): give one per batch or a single number", rate)));
            }
            rates = new ArrayList<>();
            rate.forEach(value -> rates.add(value.asDouble()));
        } else {
            rates = Collections.nCopies(batches, present(rate) ? rate.asDouble() : DEFAULT_LEARNING_RATE);
        }
        JsonNode turns = config == null ? null : config.assistantTurns();
        return new SftJobConfig(batchSize, List.copyOf(rates), present(turns) ? turns.asText() : SftJobConfig.ASSISTANT_TURNS_ALL);
    }

    private static boolean present(JsonNode node) {
        return node != null && !node.isNull();
    }

    private static boolean positiveNumber(JsonNode node) {
        return node.isNumber() && node.asDouble() > 0 && Double.isFinite(node.asDouble());
    }

    private static boolean allPositiveNumbers(JsonNode list) {
        for (JsonNode value : list) {
            if (!positiveNumber(value)) {
                return false;
            }
        }
        return true;
    }

    private static ValidationIssue issue(String field, String message, JsonNode input) {
        return new ValidationIssue("value_error", List.of("body", "config", field), message, input.isTextual() ? input.asText() : input.toString());
    }
}
