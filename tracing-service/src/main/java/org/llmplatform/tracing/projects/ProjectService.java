package org.llmplatform.tracing.projects;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.tracing.projects.ProjectStore.ProjectRow;

/** The entities a caller may use and their projects that hold data. */
@ApplicationScoped
public class ProjectService {

    /** The caller's entities (its own name first, then its teams) and their projects. */
    public record CallerProjects(List<String> entities, List<ProjectRow> projects) {
    }

    private final ProjectStore store;
    private final CurrentPrincipal caller;

    public ProjectService(ProjectStore store, CurrentPrincipal caller) {
        this.store = store;
        this.caller = caller;
    }

    public Uni<CallerProjects> list() {
        Principal principal = caller.get();
        if (principal.admin()) {
            // The bootstrap administrator may use every entity: those are the ones that hold data.
            return store.withData(null).map(projects -> new CallerProjects(List.copyOf(new TreeSet<>(projects.stream()
                    .map(project -> ProjectId.parse(project.projectId()).entity()).toList())), projects));
        }
        List<String> entities = new ArrayList<>();
        entities.add(principal.userName());
        entities.addAll(new TreeSet<>(principal.teams().keySet()));
        return store.withData(entities).map(projects -> new CallerProjects(List.copyOf(entities), projects));
    }
}
