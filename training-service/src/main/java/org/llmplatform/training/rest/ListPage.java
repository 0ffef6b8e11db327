package org.llmplatform.training.rest;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.function.Function;

/**
 * W&B's {@code PaginatedResponse}, which the OpenAI SDK's cursor page reads: it asks for the next page
 * with {@code after=<id of the last item>} while {@code has_more} is true.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ListPage<T>(String object, List<T> data, String firstId, String lastId, boolean hasMore) {

    static <T> ListPage<T> of(List<T> data, Function<T, Object> id, boolean hasMore) {
        String first = data.isEmpty() ? null : String.valueOf(id.apply(data.get(0)));
        String last = data.isEmpty() ? null : String.valueOf(id.apply(data.get(data.size() - 1)));
        return new ListPage<>("list", data, first, last, hasMore);
    }
}
