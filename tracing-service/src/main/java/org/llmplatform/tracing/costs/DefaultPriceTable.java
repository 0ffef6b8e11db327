package org.llmplatform.tracing.costs;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;

/**
 * The shipped default price table ({@code default-prices.json}): list prices of well-known hosted models in USD per
 * million tokens, as of a date, with their source. Prices are stored per token, as {@code /cost/create} takes them.
 */
@RegisterForReflection
public record DefaultPriceTable(@JsonProperty("as_of") String asOf, String unit, String source,
        LinkedHashMap<String, ListedPrice> prices) {

    static final String RESOURCE = "default-prices.json";
    static final String UNIT = "USD per 1,000,000 tokens";
    private static final double TOKENS_PER_UNIT = 1_000_000d;

    /** One model's list price per million prompt and completion tokens. */
    @RegisterForReflection
    public record ListedPrice(String provider, double prompt, double completion) {

        double promptTokenCost() {
            return prompt / TOKENS_PER_UNIT;
        }

        double completionTokenCost() {
            return completion / TOKENS_PER_UNIT;
        }
    }

    static DefaultPriceTable load(ObjectMapper json) {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            DefaultPriceTable table = json.readValue(in, DefaultPriceTable.class);
            if (!UNIT.equals(table.unit())) {
                throw new IllegalStateException(RESOURCE + " must give prices in " + UNIT + ", not " + table.unit());
            }
            return table;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + RESOURCE, e);
        }
    }
}
