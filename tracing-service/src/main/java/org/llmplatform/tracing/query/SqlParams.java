package org.llmplatform.tracing.query;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The positional parameters of one statement being built: each bind returns its typed placeholder. */
public final class SqlParams {

    private final List<Object> values = new ArrayList<>();

    /** {@code $n::type}: the explicit cast tells PostgreSQL the parameter's type wherever it appears. */
    public String bind(Object value, String pgType) {
        values.add(value);
        return "$" + values.size() + "::" + pgType;
    }

    public List<Object> values() {
        return Collections.unmodifiableList(values);
    }
}
