package org.llmplatform.automation.service;

import java.util.Optional;

/** One page of an entity's events, newest first: those after {@code before} (an event id) when given. */
public record EventQuery(String entity, Optional<String> project, int limit, Optional<String> before) {

    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;
}
