package org.llmplatform.support.error;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/** FastAPI's shapes: {@code {"detail": "message"}} and the 422 {@code {"detail": [issues]}}. */
@DefaultBean
@ApplicationScoped
public class FastApiErrorFormat implements ErrorFormat {

    @Override
    public Object errorBody(int status, String message) {
        return Map.of("detail", message);
    }
}
