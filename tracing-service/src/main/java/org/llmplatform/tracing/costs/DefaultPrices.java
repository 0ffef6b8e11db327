package org.llmplatform.tracing.costs;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.llmplatform.tracing.costs.DefaultPriceTable.ListedPrice;
import org.llmplatform.tracing.costs.DefaultPricesConfig.DefaultPrice;

/**
 * The default prices: the shipped table ({@link DefaultPriceTable}) with the configured entries added or
 * overriding it, written at start in place of the default prices stored before, and listed by
 * {@code GET /cost/defaults}.
 */
@ApplicationScoped
public class DefaultPrices {

    static final String DEFAULT_LEVEL = "default";
    static final String CREATOR = "system";

    /** The prices in effect with where the shipped ones come from. */
    public record Listing(String asOf, String source, List<CostRow> prices) {
    }

    private final Listing listing;
    private final DefaultPriceStore store;

    public DefaultPrices(DefaultPricesConfig config, DefaultPriceStore store, ObjectMapper json) {
        this.store = store;
        DefaultPriceTable table = DefaultPriceTable.load(json);
        this.listing = new Listing(table.asOf(), table.source(), rows(table, config));
    }

    void onStart(@Observes StartupEvent start) {
        store.replaceAll(listing.prices()).await().atMost(Duration.ofSeconds(60));
    }

    public Listing listing() {
        return listing;
    }

    static List<CostRow> rows(DefaultPriceTable table, DefaultPricesConfig config) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        OffsetDateTime listedOn = listedOn(table.asOf());
        Map<String, CostRow> rows = new LinkedHashMap<>();
        table.prices().forEach((llmId, price) -> rows.put(llmId, listedRow(llmId, price, listedOn, now)));
        config.models().forEach((llmId, price) -> rows.put(llmId, configuredRow(llmId, price, now)));
        return rows.values().stream().sorted(Comparator.comparing(CostRow::llmId)).toList();
    }

    private static CostRow listedRow(String llmId, ListedPrice price, OffsetDateTime listedOn, OffsetDateTime now) {
        return new CostRow(id(llmId), DEFAULT_LEVEL, DEFAULT_LEVEL, price.provider(), llmId, listedOn,
                price.promptTokenCost(), price.completionTokenCost(), "USD", "USD", CREATOR, now);
    }

    private static CostRow configuredRow(String llmId, DefaultPrice price, OffsetDateTime now) {
        return new CostRow(id(llmId), DEFAULT_LEVEL, DEFAULT_LEVEL, price.providerId(), llmId,
                effectiveDate(llmId, price.effectiveDate()), price.promptTokenCost(), price.completionTokenCost(),
                price.promptTokenCostUnit(), price.completionTokenCostUnit(), CREATOR, now);
    }

    /** Stable per LLM id, so restarts replace rather than add. */
    private static String id(String llmId) {
        return UUID.nameUUIDFromBytes(("default-price/" + llmId).getBytes(StandardCharsets.UTF_8)).toString();
    }

    private static OffsetDateTime listedOn(String asOf) {
        try {
            return LocalDate.parse(asOf).atStartOfDay().atOffset(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new IllegalStateException(DefaultPriceTable.RESOURCE + ": as_of is not an ISO-8601 date: " + asOf, e);
        }
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
