package org.llmplatform.tracing.store.query;

/** The fields a query over one table may name ({@code $getField} and sort fields). */
public interface FieldResolver {

    /** The field as SQL; throws a 422 {@code Field X is not allowed} for names the table lacks. */
    SqlValue resolve(String field, SqlParams params);
}
