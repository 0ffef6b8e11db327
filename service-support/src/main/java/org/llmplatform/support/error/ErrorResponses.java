package org.llmplatform.support.error;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Turns an {@link ApiException} into a JSON response in this service's {@link ErrorFormat}. */
@ApplicationScoped
public class ErrorResponses {

    private final ErrorFormat format;

    public ErrorResponses(ErrorFormat format) {
        this.format = format;
    }

    public Response toResponse(ApiException error) {
        Object body = error.issues().isEmpty()
                ? format.errorBody(error.status(), error.getMessage())
                : format.validationBody(error.issues());
        return Response.status(error.status()).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
    }

    public ErrorFormat format() {
        return format;
    }
}
