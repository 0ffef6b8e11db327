package org.llmplatform.tracing.refs;

import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** The rows that table refs name, read through the feature that stores tables (see {@link RefRoots}). */
public interface TableRows {

    /** The stored JSON of the row with this digest in the table with this digest, if the table holds it. */
    Uni<Optional<String>> rowInTable(String projectId, String tableDigest, String rowDigest);
}
