package org.llmplatform.tracing.costs;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** The default-level rows of {@code tracing.llm_token_prices}: replaced as a whole by the configured table. */
@ApplicationScoped
public class DefaultPriceStore {

    private static final String DELETE_OTHERS = """
            DELETE FROM tracing.llm_token_prices WHERE pricing_level = 'default' AND id <> ALL($1::text[])""";

    private static final String UPSERT = """
            INSERT INTO tracing.llm_token_prices AS p (id, pricing_level, pricing_level_id, provider_id, llm_id,
                effective_date, prompt_token_cost, completion_token_cost, prompt_token_cost_unit,
                completion_token_cost_unit, created_by, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
            ON CONFLICT (id) DO UPDATE SET provider_id = EXCLUDED.provider_id,
                effective_date = EXCLUDED.effective_date, prompt_token_cost = EXCLUDED.prompt_token_cost,
                completion_token_cost = EXCLUDED.completion_token_cost,
                prompt_token_cost_unit = EXCLUDED.prompt_token_cost_unit,
                completion_token_cost_unit = EXCLUDED.completion_token_cost_unit""";

    private final Pool pool;

    public DefaultPriceStore(Pool pool) {
        this.pool = pool;
    }

    /** After this, the default prices are exactly these rows (ids stable per LLM id, so restarts agree). */
    public Uni<Void> replaceAll(List<CostRow> rows) {
        String[] ids = rows.stream().map(CostRow::id).toArray(String[]::new);
        List<Tuple> values = rows.stream().map(row -> Tuple.tuple(List.of(row.id(), row.pricingLevel(),
                row.pricingLevelId(), row.providerId(), row.llmId(), row.effectiveDate(), row.promptTokenCost(),
                row.completionTokenCost(), row.promptTokenCostUnit(), row.completionTokenCostUnit(), row.createdBy(),
                row.createdAt()))).toList();
        return pool.withTransaction(tx -> tx.preparedQuery(DELETE_OTHERS).execute(Tuple.of(ids))
                .chain(() -> values.isEmpty()
                        ? Uni.createFrom().voidItem()
                        : tx.preparedQuery(UPSERT).executeBatch(values).replaceWithVoid()));
    }
}
