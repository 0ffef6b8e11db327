package org.llmplatform.tracing.costs;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.llmplatform.tracing.costs.DefaultPricesConfig.DefaultPrice;

/** Writes the configured default price table at start, replacing the default prices stored before. */
@ApplicationScoped
public class DefaultPrices {

    static final String DEFAULT_LEVEL = "default";
    static final String CREATOR = "system";

    private final DefaultPricesConfig config;
    private final DefaultPriceStore store;

    public DefaultPrices(DefaultPricesConfig config, DefaultPriceStore store) {
        this.config = config;
        this.store = store;
    }

    void onStart(@Observes StartupEvent start) {
        store.replaceAll(rows()).await().atMost(Duration.ofSeconds(60));
    }

    List<CostRow> rows() {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        return config.models().entrySet().stream()
                .map(entry -> row(entry.getKey(), entry.getValue(), now))
                .toList();
    }

    private static CostRow row(String llmId, DefaultPrice price, OffsetDateTime now) {
        String id = UUID.nameUUIDFromBytes(("default-price/" + llmId).getBytes(StandardCharsets.UTF_8)).toString();
        return new CostRow(id, DEFAULT_LEVEL, DEFAULT_LEVEL, price.providerId(), llmId,
                effectiveDate(llmId, price.effectiveDate()), price.promptTokenCost(), price.completionTokenCost(),
                price.promptTokenCostUnit(), price.completionTokenCostUnit(), CREATOR, now);
    }

    private static OffsetDateTime effectiveDate(String llmId, String value) {
        try {
            return OffsetDateTime.parse(value).withOffsetSameInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("tracing.default-prices.\"" + llmId
                    + "\".effective-date is not an ISO-8601 date-time: " + value, e);
        }
    }
}
