package org.llmplatform.tracing.costs;

import java.time.OffsetDateTime;

/** One LLM token price as stored. */
public record CostRow(
        String id,
        String pricingLevel,
        String pricingLevelId,
        String providerId,
        String llmId,
        OffsetDateTime effectiveDate,
        double promptTokenCost,
        double completionTokenCost,
        String promptTokenCostUnit,
        String completionTokenCostUnit,
        String createdBy,
        OffsetDateTime createdAt) {
}
