package org.llmplatform.tracing.query;

import com.fasterxml.jackson.databind.JsonNode;

/** A query operand on its way to SQL: a typed expression, a JSON path (untyped text), or a literal. */
public sealed interface SqlValue {

    /**
     * A column or computed expression of a known type; {@code neverNull}: it has a value in every row a query
     * reads (so a comparison with a literal is two-valued without {@code coalesce}, and its index can serve it).
     */
    record Column(String sql, SqlType type, boolean neverNull) implements SqlValue {
        public Column(String sql, SqlType type) {
            this(sql, type, false);
        }
    }

    /**
     * A value inside a JSON document, read as ClickHouse's JSON_VALUE reads it (scalar text, '' when
     * missing); its type comes from what it is compared with (docs/tracing-service.md#query-typing).
     * {@code wholeDocument}: the path is empty, so {@code $contains} searches the document's JSON text.
     */
    record JsonPath(String documentSql, String pathSql, boolean wholeDocument) implements SqlValue {
        public JsonPath(String documentSql, String pathSql) {
            this(documentSql, pathSql, false);
        }

        String text() {
            return "tracing.json_value(" + documentSql + ", " + pathSql + ")";
        }

        String exists() {
            return "tracing.json_exists(" + documentSql + ", " + pathSql + ")";
        }
    }

    /** A {@code $literal}, bound as a parameter once its type is known. */
    record Constant(JsonNode value) implements SqlValue {
    }
}
