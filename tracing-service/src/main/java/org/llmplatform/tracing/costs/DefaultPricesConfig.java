package org.llmplatform.tracing.costs;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.util.Map;

/**
 * Default LLM prices per token from configuration (docs/tracing-service.md#costs), per LLM id, added to the shipped
 * table or replacing its entry: {@code tracing.default-prices."gpt-4o".prompt-token-cost=0.0000025}.
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
