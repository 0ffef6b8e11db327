package org.llmplatform.support.identity;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.OffsetDateTime;

public record Team(String name, @JsonProperty("created_at") OffsetDateTime createdAt) {
}
