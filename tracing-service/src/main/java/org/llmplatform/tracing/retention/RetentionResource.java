package org.llmplatform.tracing.retention;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StrictRequest;

/**
 * Weave's {@code /project/ttl_settings/read} and {@code /update}: a project's call retention in days, null for none.
 * The updater is the authenticated caller; Weave's {@code wb_user_id} is accepted and not trusted.
 */
@Path("/project/ttl_settings")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class RetentionResource {

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TtlSettingsReadReq(String projectId) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TtlSettingsUpdateReq(String projectId, Integer retentionDays, String wbUserId) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TtlSettingsRes(Integer retentionDays) {
    }

    private final RetentionService retention;

    public RetentionResource(RetentionService retention) {
        this.retention = retention;
    }

    @POST
    @Path("read")
    @BodyChecks(projectIds = "project_id")
    public Uni<TtlSettingsRes> read(TtlSettingsReadReq request) {
        return retention.read(projectOf(request == null ? null : request.projectId())).map(TtlSettingsRes::new);
    }

    @POST
    @Path("update")
    @BodyChecks(projectIds = "project_id")
    public Uni<TtlSettingsRes> update(TtlSettingsUpdateReq request) {
        return retention.update(projectOf(request == null ? null : request.projectId()), request.retentionDays())
                .map(TtlSettingsRes::new);
    }

    private static String projectOf(String projectId) {
        if (projectId == null) {
            throw ApiException.missingField("project_id");
        }
        return projectId;
    }
}
