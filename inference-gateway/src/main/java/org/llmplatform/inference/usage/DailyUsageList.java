package org.llmplatform.inference.usage;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.LocalDate;
import java.util.List;

/** A project's usage per day and model over {@code from}..{@code to} (UTC days, both included), in OpenAI's list envelope. */
@RegisterForReflection
public record DailyUsageList(String object, String project, LocalDate from, LocalDate to, List<DailyUsage> data) {

    static DailyUsageList of(String project, LocalDate from, LocalDate to, List<DailyUsage> data) {
        return new DailyUsageList("list", project, from, to, data);
    }
}
