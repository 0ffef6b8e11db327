package org.llmplatform.support.identity;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.OffsetDateTime;

/** What may be shown of a key after its creation: never the key, only a hint of its last characters. */
public record ApiKeyInfo(
        String id,
        String user,
        String name,
        String hint,
        @JsonProperty("created_at") OffsetDateTime createdAt,
        @JsonProperty("revoked_at") OffsetDateTime revokedAt) {
}
