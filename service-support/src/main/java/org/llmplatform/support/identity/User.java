package org.llmplatform.support.identity;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.OffsetDateTime;

public record User(String name, String email, boolean admin, @JsonProperty("created_at") OffsetDateTime createdAt) {
}
