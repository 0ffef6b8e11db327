package org.llmplatform.support.error;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.pgclient.PgException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.List;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Every failure leaves as JSON in this service's {@link ErrorFormat}; bad input is never a 500. */
public class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class);
    /** PostgreSQL's SQLSTATE class 22: the value does not fit its column. */
    private static final String DATA_EXCEPTION = "22";

    private final ErrorResponses errors;

    public ErrorMappers(ErrorResponses errors) {
        this.errors = errors;
    }

    @ServerExceptionMapper
    public Response apiError(ApiException error) {
        return errors.toResponse(error);
    }

    @ServerExceptionMapper
    public Response unreadableJson(JsonProcessingException problem) {
        return errors.toResponse(ApiException.invalid(List.of(JsonProblems.describe(problem))));
    }

    /** Named apart because Quarkus ships its own (400, no field) mapper for exactly this type. */
    @ServerExceptionMapper
    public Response mismatchedJson(MismatchedInputException problem) {
        return unreadableJson(problem);
    }

    @ServerExceptionMapper
    public Response unknownRoute(NotFoundException error, HttpServerRequest request) {
        return Response.status(404).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(errors.format().unknownRouteBody(request.method().name(), request.path()))
                .build();
    }

    @ServerExceptionMapper
    public Response webApplicationError(WebApplicationException error) {
        if (error.getCause() instanceof JsonProcessingException problem) {
            return unreadableJson(problem);
        }
        int status = error.getResponse().getStatus();
        if (status >= 500) {
            LOG.error("Request failed", error);
        }
        Response.StatusType type = Response.Status.fromStatusCode(status);
        String message = type != null ? type.getReasonPhrase() : error.getMessage();
        return errors.toResponse(new ApiException(status, message));
    }

    /**
     * A request body that could not be read, such as multipart data cut short or without its boundary.
     * Resources never throw an IOException themselves (they wrap I/O in UncheckedIOException), so one
     * that reaches here came from reading the request; JSON problems have their own mapper above.
     */
    @ServerExceptionMapper
    public Response unreadableBody(IOException problem) {
        return errors.toResponse(ApiException.badRequest("Unreadable request body: " + problem.getMessage()));
    }

    /** A value the database cannot hold (a NUL character, a number out of range) came from the caller. */
    @ServerExceptionMapper
    public Response unstorableValue(PgException error) {
        if (error.getSqlState() != null && error.getSqlState().startsWith(DATA_EXCEPTION)) {
            return errors.toResponse(ApiException.badRequest("Invalid value: " + error.getErrorMessage()));
        }
        return unexpected(error);
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable error) {
        LOG.error("Request failed", error);
        return errors.toResponse(new ApiException(500, "Internal server error"));
    }
}
