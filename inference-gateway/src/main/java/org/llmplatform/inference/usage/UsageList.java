package org.llmplatform.inference.usage;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** OpenAI's list envelope, {@code {"object":"list","data":[…]}}. */
@RegisterForReflection
public record UsageList(String object, List<UsageTotal> data) {

    public static UsageList of(List<UsageTotal> data) {
        return new UsageList("list", data);
    }
}
