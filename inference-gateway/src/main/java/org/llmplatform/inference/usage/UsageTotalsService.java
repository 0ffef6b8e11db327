package org.llmplatform.inference.usage;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.llmplatform.inference.usage.UsageTotalsStore.Usage;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.messaging.PollConsumer.Refusal;

/** The gateway's per-project, per-model usage totals, counted once per request id. */
@Singleton
public class UsageTotalsService {

    private static final String SUCCESS = "success";

    private final UsageTotalsStore store;

    public UsageTotalsService(UsageTotalsStore store) {
        this.store = store;
    }

    /**
     * Counts the well-formed records of a batch in one transaction, each request id once (redeliveries
     * change nothing); answers the malformed ones, which were not counted.
     */
    public Uni<List<Refusal>> count(List<UsageRecord> records) {
        List<Usage> usages = new ArrayList<>(records.size());
        List<Refusal> refusals = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            try {
                usages.add(toUsage(records.get(i)));
            } catch (MalformedUsageRecord malformed) {
                refusals.add(new Refusal(i, malformed));
            }
        }
        return store.addAll(usages).replaceWith(refusals);
    }

    public Uni<List<UsageTotal>> totals(ProjectId project) {
        return store.forProject(project.toString());
    }

    /** The project's usage per UTC day and model from {@code from} to {@code to}, both included. */
    public Uni<List<DailyUsage>> daily(ProjectId project, LocalDate from, LocalDate to) {
        return store.daily(project.toString(), from, to);
    }

    private static Usage toUsage(UsageRecord record) {
        if (record == null) {
            throw new MalformedUsageRecord("the record has no value");
        }
        if (record.schemaVersion() < 1 || record.schemaVersion() > UsageRecord.SCHEMA_VERSION) {
            throw new MalformedUsageRecord("unsupported schema_version " + record.schemaVersion());
        }
        String requestId = required(record.requestId(), "request_id");
        String model = required(record.model(), "model");
        String status = required(record.status(), "status");
        String project = parsedProject(required(record.projectId(), "project_id"));
        if (record.promptTokens() < 0 || record.completionTokens() < 0) {
            throw new MalformedUsageRecord("token counts must not be negative");
        }
        Instant at = record.endedAt() != null ? record.endedAt()
                : record.startedAt() != null ? record.startedAt() : Instant.now();
        return new Usage(requestId, project, model, record.promptTokens(), record.completionTokens(),
                !SUCCESS.equals(status), OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
    }

    private static String parsedProject(String projectId) {
        try {
            return ProjectId.parse(projectId).toString();
        } catch (ApiException invalid) {
            throw new MalformedUsageRecord(invalid.getMessage());
        }
    }

    private static String required(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new MalformedUsageRecord(field + " is required");
        }
        return value;
    }
}
