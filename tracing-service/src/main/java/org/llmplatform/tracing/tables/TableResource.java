package org.llmplatform.tracing.tables;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.nio.charset.StandardCharsets;
import org.jboss.resteasy.reactive.RestMulti;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.http.JsonLinesBody;
import org.llmplatform.tracing.tables.TableEnvelopes.TableCreateFromDigestsReq;
import org.llmplatform.tracing.tables.TableEnvelopes.TableCreateFromDigestsRes;
import org.llmplatform.tracing.tables.TableEnvelopes.TableCreateReq;
import org.llmplatform.tracing.tables.TableEnvelopes.TableQueryReq;
import org.llmplatform.tracing.tables.TableEnvelopes.TableQueryRes;
import org.llmplatform.tracing.tables.TableEnvelopes.TableQueryStatsBatchReq;
import org.llmplatform.tracing.tables.TableEnvelopes.TableQueryStatsBatchRes;
import org.llmplatform.tracing.tables.TableEnvelopes.TableQueryStatsReq;
import org.llmplatform.tracing.tables.TableEnvelopes.TableQueryStatsRes;
import org.llmplatform.tracing.tables.TableEnvelopes.TableUpdateReq;
import org.llmplatform.tracing.tables.TableService.TableCreated;
import org.llmplatform.tracing.tables.TableService.TableUpdated;

/** {@code /table/create|create_from_digests|update|query|query_stream|query_stats|query_stats_batch}. */
@Path("/table")
@Consumes(MediaType.APPLICATION_JSON)
public class TableResource {

    private final TableService tables;

    public TableResource(TableService tables) {
        this.tables = tables;
    }

    @POST
    @Path("create")
    @BodyChecks(projectIds = "table.project_id")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<TableCreated> create(TableCreateReq request) {
        if (request == null || request.table() == null) {
            throw ApiException.missingField("table");
        }
        return tables.create(request.table().projectId(), request.table().rows());
    }

    @POST
    @Path("create_from_digests")
    @BodyChecks(projectIds = "project_id", limits = {
            @Limit(field = "row_digests[]", max = FieldLimits.DIGEST),
            @Limit(field = "expected_digest", max = FieldLimits.DIGEST)})
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<TableCreateFromDigestsRes> createFromDigests(TableCreateFromDigestsReq request) {
        required(request);
        return tables.createFromDigests(request.projectId(), request.rowDigests(), request.expectedDigest())
                .map(TableCreateFromDigestsRes::new);
    }

    @POST
    @Path("update")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "base_digest", max = FieldLimits.DIGEST))
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<TableUpdated> update(TableUpdateReq request) {
        required(request);
        return tables.update(request.projectId(), request.baseDigest(), request.edits());
    }

    @POST
    @Path("query")
    @BodyChecks(projectIds = "project_id", limits = {
            @Limit(field = "digest", max = FieldLimits.DIGEST),
            @Limit(field = "filter.row_digests[]", max = FieldLimits.DIGEST)})
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<TableQueryRes> query(TableQueryReq request) {
        required(request);
        return tables.query(request.toQuery()).map(TableQueryRes::new);
    }

    @POST
    @Path("query_stream")
    @BodyChecks(projectIds = "project_id", limits = {
            @Limit(field = "digest", max = FieldLimits.DIGEST),
            @Limit(field = "filter.row_digests[]", max = FieldLimits.DIGEST)})
    public RestMulti<Buffer> queryStream(TableQueryReq request, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        required(request);
        return RestMulti.fromMultiData(tables.streamLines(request.toQuery())
                        .map(lines -> Buffer.buffer(lines.getBytes(StandardCharsets.UTF_8))))
                .status(200)
                .header(HttpHeaders.CONTENT_TYPE, JsonLinesBody.contentType(accept))
                .encodeAsJsonArray(false)
                .build();
    }

    @POST
    @Path("query_stats")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "digest", max = FieldLimits.DIGEST))
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<TableQueryStatsRes> queryStats(TableQueryStatsReq request) {
        required(request);
        return tables.count(request.projectId(), request.digest()).map(TableQueryStatsRes::new);
    }

    @POST
    @Path("query_stats_batch")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "digests[]", max = FieldLimits.DIGEST))
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<TableQueryStatsBatchRes> queryStatsBatch(TableQueryStatsBatchReq request) {
        required(request);
        return tables.stats(request.projectId(), request.digests(), request.includeStorageSize())
                .map(TableQueryStatsBatchRes::new);
    }

    private static void required(Object request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
    }
}
