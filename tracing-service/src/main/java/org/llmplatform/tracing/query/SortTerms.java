package org.llmplatform.tracing.query;

import java.util.List;
import org.llmplatform.tracing.query.SqlValue.Column;
import org.llmplatform.tracing.query.SqlValue.JsonPath;

/**
 * ORDER BY terms for one sort key (docs/tracing-service.md#sorting-by-json-values): plain columns sort natively with nulls last
 * (text by bytes, as ClickHouse compares it); JSON values by presence first (whatever the
 * direction), then as a number, then as text.
 */
final class SortTerms {

    static List<String> of(SqlValue value, boolean descending, boolean neverNull) {
        String direction = descending ? " DESC" : " ASC";
        if (value instanceof JsonPath path) {
            return List.of(path.exists() + " DESC",
                    "tracing.to_double(" + path.text() + ")" + direction + " NULLS LAST",
                    path.text() + " COLLATE \"C\"" + direction);
        }
        if (!(value instanceof Column column)) {
            throw new IllegalArgumentException("a literal is no sort key");
        }
        // Without a nulls clause (or collation) a never-null column keeps the order of its index.
        if (neverNull) {
            return List.of(column.sql() + direction);
        }
        String bytewise = column.type() == SqlType.TEXT ? " COLLATE \"C\"" : "";
        return List.of(column.sql() + bytewise + direction + " NULLS LAST");
    }

    private SortTerms() {
    }
}
