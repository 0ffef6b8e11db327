package org.llmplatform.tracing.costs;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.util.Map;

/**
 * The default LLM price table (docs/tracing-service.md#costs), per LLM id:
 * {@code tracing.default-prices."gpt-4o".prompt-token-cost=0.0000025}. These prices cost the usage of
 * calls in projects without a price of their own, and are never listed by {@code /cost/query}.
 */
@ConfigMapping(prefix = "tracing.default-prices")
public interface DefaultPricesConfig {

    @WithParentName
    Map<String, DefaultPrice> models();

    interface DefaultPrice {

        double promptTokenCost();

        double completionTokenCost();

        @WithDefault("USD")
        String promptTokenCostUnit();

        @WithDefault("USD")
        String completionTokenCostUnit();

        @WithDefault("default")
        String providerId();

        /** ISO-8601; by default the price has always applied. */
        @WithDefault("1970-01-01T00:00:00Z")
        String effectiveDate();
    }
}
