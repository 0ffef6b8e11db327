package org.llmplatform.tracing.otel;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallEndRow;
import org.llmplatform.tracing.calls.CallStartRow;
import org.llmplatform.tracing.calls.CallStore;
import org.llmplatform.tracing.otel.OtlpModel.Attribute;
import org.llmplatform.tracing.otel.OtlpModel.ExportRequest;
import org.llmplatform.tracing.otel.OtlpModel.ResourceSpans;
import org.llmplatform.tracing.otel.OtlpModel.ScopeSpans;
import org.llmplatform.tracing.otel.OtlpModel.Span;
import org.llmplatform.tracing.otel.SpanToCall.MappedCall;

/**
 * OTLP trace export (docs/tracing-service.md#opentelemetry-ingest): every acceptable span becomes a complete call, written as a
 * start and an end part in one transaction; spans that cannot become calls are counted in
 * {@code partial_success} and the rest are still kept. Writing a span again changes nothing (its
 * span id is the call id, and parts only fill what is still empty).
 */
@ApplicationScoped
public class OtelIngestService {

    static final int REPORTED_MESSAGES = 20;

    private final SpanToCall mapper;
    private final CallStore calls;
    private final CurrentPrincipal caller;

    public OtelIngestService(SpanToCall mapper, CallStore calls, CurrentPrincipal caller) {
        this.mapper = mapper;
        this.calls = calls;
        this.caller = caller;
    }

    /** What an export left out: {@code rejectedSpans == 0} and a null message on full success. */
    public record ExportResult(long rejectedSpans, String errorMessage) {
    }

    /**
     * @param projectHeader the {@code project_id} header (or the JSON envelope's field); when absent,
     *        each resource names its project with {@code wandb.entity} and {@code wandb.project}
     */
    public Uni<ExportResult> export(String projectHeader, ExportRequest request) {
        String userId = caller.get().userName();
        Map<String, String> allowed = new HashMap<>();
        List<CallStartRow> starts = new ArrayList<>();
        List<CallEndRow> ends = new ArrayList<>();
        List<String> rejections = new ArrayList<>();
        for (ResourceSpans resource : request.resourceSpans()) {
            String project = allowed.computeIfAbsent(projectOf(projectHeader, resource),
                    named -> caller.requireProject(named).toString());
            for (ScopeSpans scope : resource.scopeSpans()) {
                for (Span span : scope.spans()) {
                    try {
                        MappedCall call = mapper.map(project, userId, resource, scope, span);
                        starts.add(call.start());
                        if (call.end() != null) {
                            ends.add(call.end());
                        }
                    } catch (SpanToCall.RejectedSpanException rejected) {
                        rejections.add(rejected.getMessage());
                    }
                }
            }
        }
        ExportResult result = new ExportResult(rejections.size(), rejections.isEmpty() ? null : summary(rejections));
        if (starts.isEmpty()) {
            return Uni.createFrom().item(result);
        }
        return calls.writeBatch(starts, ends).replaceWith(result);
    }

    private static String projectOf(String projectHeader, ResourceSpans resource) {
        if (projectHeader != null && !projectHeader.isBlank()) {
            return projectHeader.strip();
        }
        String entity = resourceAttribute(resource, "wandb.entity");
        String project = resourceAttribute(resource, "wandb.project");
        if (project != null && entity == null && project.contains("/")) {
            return project;
        }
        if (entity == null || project == null) {
            throw ApiException.badRequest("No project for the spans: send a 'project_id: <entity>/<project>' header"
                    + " or the resource attributes 'wandb.entity' and 'wandb.project'");
        }
        return entity + "/" + project;
    }

    private static String resourceAttribute(ResourceSpans resource, String key) {
        for (Attribute attribute : resource.resourceAttributes()) {
            if (attribute.key().equals(key) && attribute.value().isTextual() && !attribute.value().asText().isBlank()) {
                return attribute.value().asText();
            }
        }
        return null;
    }

    /** The first 20 messages joined by "; ", then "; ..." when there were more, as the reference reports them. */
    private static String summary(List<String> rejections) {
        String joined = String.join("; ", rejections.subList(0, Math.min(REPORTED_MESSAGES, rejections.size())));
        return rejections.size() > REPORTED_MESSAGES ? joined + "; ..." : joined;
    }
}
