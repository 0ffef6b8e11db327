package org.llmplatform.tracing.projects;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.tracing.projects.ProjectStore.ProjectRow;

/**
 * {@code GET /projects}: the caller's entities and their projects that hold data (not part of Weave's API;
 * the console's project list reads it).
 */
@Path("/projects")
@Produces(MediaType.APPLICATION_JSON)
public class ProjectResource {

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ProjectsRes(List<String> entities, List<ProjectSchema> projects) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ProjectSchema(String projectId, String entity, String project, long callCount, String lastActivity) {
    }

    private final ProjectService projects;

    public ProjectResource(ProjectService projects) {
        this.projects = projects;
    }

    @GET
    public Uni<ProjectsRes> list() {
        return projects.list().map(found -> new ProjectsRes(found.entities(),
                found.projects().stream().map(ProjectResource::schema).toList()));
    }

    private static ProjectSchema schema(ProjectRow row) {
        ProjectId id = ProjectId.parse(row.projectId());
        return new ProjectSchema(row.projectId(), id.entity(), id.project(), row.callCount(), row.lastActivity());
    }
}
