package org.llmplatform.tracing.tables;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.llmplatform.tracing.refs.TableRows;

/** The rows table refs name, for the ref resolver. */
@ApplicationScoped
public class TableRefRows implements TableRows {

    private final TableStore tables;

    public TableRefRows(TableStore tables) {
        this.tables = tables;
    }

    @Override
    public Uni<Optional<String>> rowInTable(String projectId, String tableDigest, String rowDigest) {
        return tables.rowInTable(projectId, tableDigest, rowDigest);
    }
}
