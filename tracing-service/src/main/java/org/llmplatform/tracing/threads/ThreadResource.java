package org.llmplatform.tracing.threads;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.core.buffer.Buffer;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.jboss.resteasy.reactive.RestMulti;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StrictRequest;
import org.llmplatform.tracing.http.JsonLinesBody;
import org.llmplatform.tracing.query.SortBy;
import org.llmplatform.tracing.threads.ThreadService.ThreadsRequest;
import org.llmplatform.tracing.threads.ThreadStore.ThreadRow;

/** {@code /threads/stream_query}: JSON Lines of {@code ThreadSchema}. */
@Path("/threads")
@Consumes(MediaType.APPLICATION_JSON)
public class ThreadResource {

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ThreadsQueryReq(String projectId, ThreadsQueryFilter filter, Long limit, Long offset,
            List<SortBy> sortBy) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ThreadsQueryFilter(String afterDatetime, String beforeDatetime, List<String> threadIds) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ThreadSchema(String threadId, long turnCount, String startTime, String lastUpdated, String firstTurnId,
            String lastTurnId, Double p50TurnDurationMs, Double p99TurnDurationMs) {
    }

    private final ThreadService threads;
    private final ObjectMapper json;

    public ThreadResource(ThreadService threads, ObjectMapper json) {
        this.threads = threads;
        this.json = json;
    }

    @POST
    @Path("stream_query")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "filter.thread_ids[]", max = FieldLimits.ID))
    public RestMulti<Buffer> streamQuery(ThreadsQueryReq request, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        ThreadsQueryFilter filter = request.filter();
        ThreadsRequest query = new ThreadsRequest(request.projectId(), filter == null ? null : filter.afterDatetime(),
                filter == null ? null : filter.beforeDatetime(), filter == null ? null : filter.threadIds(),
                request.sortBy(), request.limit(), request.offset());
        return RestMulti.fromMultiData(threads.stream(query).map(this::jsonLine))
                .status(200)
                .header(HttpHeaders.CONTENT_TYPE, JsonLinesBody.contentType(accept))
                .encodeAsJsonArray(false)
                .build();
    }

    private Buffer jsonLine(ThreadRow row) {
        try {
            return Buffer.buffer(json.writeValueAsBytes(new ThreadSchema(row.threadId(), row.turnCount(), row.startTime(),
                    row.lastUpdated(), row.firstTurnId(), row.lastTurnId(), row.p50TurnDurationMs(),
                    row.p99TurnDurationMs())));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a thread could not be written as JSON", e);
        }
    }
}
