package org.llmplatform.tracing.calls;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The row size limit (docs/tracing-service.md#oversized-rows): while a part's JSON columns together pass 3.5 MiB, the
 * largest is replaced by a placeholder, as the reference's insert path does.
 */
public final class OversizedColumns {

    static final long MAX_ROW_BYTES = 3_670_016;
    static final String PLACEHOLDER = "{\"_weave\": {\"error\": \"<EXCEEDS_LIMITS>\"}}";

    /** The columns (JSON text, null for none) in the same order, the largest replaced until they fit. */
    public static List<String> fit(String... columns) {
        List<String> fitted = new ArrayList<>(Arrays.asList(columns));
        long utf8Bound = 0;
        for (String column : columns) {
            utf8Bound += column == null ? 0 : 3L * column.length();
        }
        if (utf8Bound <= MAX_ROW_BYTES) {
            // A UTF-16 unit never takes more than 3 bytes, so the usual part fits without encoding anything.
            return fitted;
        }
        long[] sizes = Arrays.stream(columns).mapToLong(OversizedColumns::bytes).toArray();
        while (Arrays.stream(sizes).sum() > MAX_ROW_BYTES) {
            int largest = IntStream.range(0, sizes.length).boxed()
                    .max(Comparator.comparingLong(i -> sizes[i])).orElseThrow();
            if (PLACEHOLDER.equals(fitted.get(largest))) {
                break;
            }
            fitted.set(largest, PLACEHOLDER);
            sizes[largest] = bytes(PLACEHOLDER);
        }
        return fitted;
    }

    private static long bytes(String json) {
        return json == null ? 0 : json.getBytes(StandardCharsets.UTF_8).length;
    }

    private OversizedColumns() {
    }
}
