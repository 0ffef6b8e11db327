package org.llmplatform.tracing.files;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StrictRequest;
import org.llmplatform.tracing.files.FileService.Upload;

/** {@code /file/create} and {@code /file/content}, and the {@code /files/*} spellings the Python client uses. */
@Path("/")
public class FileResource {

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FileContentReq(String projectId, String digest) {
    }

    /** {@code FilesStatsReq}. */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FilesStatsReq(String projectId) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FilesStatsRes(long totalSizeBytes) {
    }

    private final FileService files;

    public FileResource(FileService files) {
        this.files = files;
    }

    @POST
    @Path("file/create")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Map<String, String>> create(@RestForm("project_id") String projectId, @RestForm("file") FileUpload file) {
        Upload upload = file == null ? null : new Upload(file.uploadedFile(), file.size(), file.fileName());
        return files.create(projectId, upload).map(digest -> Map.of("digest", digest));
    }

    @POST
    @Path("files/create")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Map<String, String>> createAlias(@RestForm("project_id") String projectId, @RestForm("file") FileUpload file) {
        return create(projectId, file);
    }

    @POST
    @Path("file/content")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "digest", max = FieldLimits.DIGEST))
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public Multi<byte[]> content(FileContentReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return files.content(request.projectId(), request.digest());
    }

    @POST
    @Path("files/content")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "digest", max = FieldLimits.DIGEST))
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public Multi<byte[]> contentAlias(FileContentReq request) {
        return content(request);
    }

    @POST
    @Path("files/query_stats")
    @BodyChecks(projectIds = "project_id")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<FilesStatsRes> queryStats(FilesStatsReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return files.totalSize(request.projectId()).map(FilesStatsRes::new);
    }
}
