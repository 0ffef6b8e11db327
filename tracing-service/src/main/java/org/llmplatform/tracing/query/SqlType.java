package org.llmplatform.tracing.query;

/** The SQL types a query value can have, with the PostgreSQL name a parameter of it is cast to. */
public enum SqlType {
    TEXT("text"), INT("bigint"), DOUBLE("float8"), BOOL("boolean"), TIMESTAMP("timestamptz");

    final String pgName;

    SqlType(String pgName) {
        this.pgName = pgName;
    }

    boolean isNumeric() {
        return this == INT || this == DOUBLE;
    }
}
