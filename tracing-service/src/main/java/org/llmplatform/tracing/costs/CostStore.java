package org.llmplatform.tracing.costs;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.llmplatform.tracing.query.JsonRows;
import org.llmplatform.tracing.query.QuerySql;
import org.llmplatform.tracing.query.RowsQuery;

/** The SQL over {@code tracing.llm_token_prices}. */
@ApplicationScoped
public class CostStore {

    private static final String INSERT = """
            INSERT INTO tracing.llm_token_prices (id, pricing_level, pricing_level_id, provider_id, llm_id,
                effective_date, prompt_token_cost, completion_token_cost, prompt_token_cost_unit,
                completion_token_cost_unit, created_by, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)""";

    /** Only this project's own prices can go; default prices never do. */
    private static final String PURGE = """
            DELETE FROM tracing.llm_token_prices
            WHERE pricing_level = 'project' AND pricing_level_id = $1 AND id = ANY($2::text[])""";

    private final Pool pool;

    public CostStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> insert(List<CostRow> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Tuple> values = rows.stream().map(row -> Tuple.tuple(List.of(row.id(), row.pricingLevel(),
                row.pricingLevelId(), row.providerId(), row.llmId(), row.effectiveDate(), row.promptTokenCost(),
                row.completionTokenCost(), row.promptTokenCostUnit(), row.completionTokenCostUnit(), row.createdBy(),
                row.createdAt()))).toList();
        return pool.withTransaction(tx -> tx.preparedQuery(INSERT).executeBatch(values)).replaceWithVoid();
    }

    public Uni<Void> purge(String projectId, List<String> ids) {
        return pool.preparedQuery(PURGE).execute(Tuple.of(projectId, ids.toArray(String[]::new))).replaceWithVoid();
    }

    /**
     * The JSON text of each result row. Always this project's own prices, whether or not a query is given (the
     * reference scopes only without one).
     */
    public Uni<List<String>> query(RowsQuery query) {
        return JsonRows.query(pool,
                QuerySql.rows(CostFields.INSTANCE, "p.pricing_level = 'project' AND p.pricing_level_id = %s", query));
    }
}
