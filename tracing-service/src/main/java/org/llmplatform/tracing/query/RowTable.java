package org.llmplatform.tracing.query;

import java.util.List;

/** A table that {@link QuerySql#rows} queries into free-form result rows (feedback, prices). */
public interface RowTable extends FieldResolver {

    /** The table and its alias, as in a FROM clause. */
    String from();

    /** The alias-qualified key that makes an order total. */
    String idColumn();

    /** Every field, in the order {@code fields: ["*"]} lists them. */
    List<String> columns();

    /** The field as a jsonb value for a result row; throws the table's unknown-field error. */
    String jsonValue(String field, SqlParams params);

    boolean neverNull(String field);

    /** The order when the request gives none. */
    List<String> defaultOrder();
}
