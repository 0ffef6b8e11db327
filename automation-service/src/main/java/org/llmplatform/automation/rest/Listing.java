package org.llmplatform.automation.rest;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** A list response: {@code {"data": [...]}}. */
@RegisterForReflection
public record Listing<T>(List<T> data) {
}
