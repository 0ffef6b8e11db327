package org.llmplatform.tracing.costs;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.llmplatform.tracing.query.InvalidQueryException;
import org.llmplatform.tracing.query.RowTable;
import org.llmplatform.tracing.query.SqlParams;
import org.llmplatform.tracing.query.SqlType;
import org.llmplatform.tracing.query.SqlValue;
import org.llmplatform.tracing.query.SqlValue.Column;

/** The fields of {@code tracing.llm_token_prices p} as {@code /cost/query} names them (docs/tracing-service.md#feedback-and-cost-fields). */
public final class CostFields implements RowTable {

    public static final CostFields INSTANCE = new CostFields();

    private static final List<String> COLUMNS = List.of("id", "pricing_level", "pricing_level_id", "provider_id", "llm_id",
            "effective_date", "prompt_token_cost", "completion_token_cost", "prompt_token_cost_unit",
            "completion_token_cost_unit", "created_by", "created_at");

    private static final Map<String, SqlType> TYPES = Map.of("effective_date", SqlType.TIMESTAMP,
            "created_at", SqlType.TIMESTAMP, "prompt_token_cost", SqlType.DOUBLE, "completion_token_cost", SqlType.DOUBLE);

    private CostFields() {
    }

    @Override
    public SqlValue resolve(String field, SqlParams params) {
        return new Column("p." + known(field), TYPES.getOrDefault(field, SqlType.TEXT));
    }

    @Override
    public String jsonValue(String field, SqlParams params) {
        String column = "p." + known(field);
        return TYPES.get(field) == SqlType.TIMESTAMP ? "to_jsonb(tracing.iso_utc(" + column + "))" : "to_jsonb(" + column + ")";
    }

    @Override
    public String from() {
        return "tracing.llm_token_prices p";
    }

    @Override
    public String idColumn() {
        return "p.id";
    }

    @Override
    public List<String> columns() {
        return COLUMNS;
    }

    @Override
    public boolean neverNull(String field) {
        return Set.copyOf(COLUMNS).contains(field);
    }

    @Override
    public List<String> defaultOrder() {
        return List.of("p.created_at", "p.id");
    }

    private static String known(String field) {
        if (!COLUMNS.contains(field)) {
            throw InvalidQueryException.unsupported("Unknown field: " + field);
        }
        return field;
    }
}
