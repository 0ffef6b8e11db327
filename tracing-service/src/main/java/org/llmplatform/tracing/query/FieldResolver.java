package org.llmplatform.tracing.query;

/** The fields a query over one table may name ({@code $getField} and sort fields). */
public interface FieldResolver {

    /** The field as SQL; names the table lacks are {@link InvalidQueryException#fieldNotAllowed}. */
    SqlValue resolve(String field, SqlParams params);
}
