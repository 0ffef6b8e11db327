package org.llmplatform.tracing.query;

import java.util.List;

/** A built statement and its positional parameters. */
public record SqlStatement(String sql, List<Object> params) {
}
