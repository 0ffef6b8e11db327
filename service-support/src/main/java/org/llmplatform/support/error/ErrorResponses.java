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
        return Response.status(error.status()).type(MediaType.APPLICATION_JSON_TYPE).entity(body(error)).build();
    }

    /** The JSON body of the error's response, for what answers outside a resource. */
    public Object body(ApiException error) {
        return error.issues().isEmpty()
                ? format.errorBody(error.status(), error.getMessage())
                : format.validationBody(error.issues());
    }

    public ErrorFormat format() {
        return format;
    }
}
