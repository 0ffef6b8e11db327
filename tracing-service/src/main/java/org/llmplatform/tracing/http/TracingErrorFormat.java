package org.llmplatform.tracing.http;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.llmplatform.support.error.ErrorFormat;

/** The Weave trace server's errors: {@code {"reason": "..."}}, FastAPI's shapes for 422 and unknown routes. */
@ApplicationScoped
public class TracingErrorFormat implements ErrorFormat {

    @Override
    public Object errorBody(int status, String message) {
        return Map.of("reason", message);
    }
}
