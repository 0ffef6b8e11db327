package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A claim check: where a stored blob lies ({@code uri}, resolved by any blob store over the same storage),
 * with the SHA-256 of its bytes (lowercase hex) and its size, so a reader can verify what it fetched.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record BlobReference(String uri, String sha256, long byteCount) {
}
