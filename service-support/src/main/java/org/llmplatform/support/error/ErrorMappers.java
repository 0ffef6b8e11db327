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
import java.util.Locale;
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
     * RESTEasy's multipart parser fails with a bare IOException on a body cut short or without the
     * boundary its Content-Type names; anything else that fails with one (an outgoing call, say) is ours.
     */
    @ServerExceptionMapper
    public Response unreadableBody(IOException problem, HttpServerRequest request) {
        String type = request.getHeader("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("multipart/")) {
            return unexpected(problem);
        }
        return errors.toResponse(ApiException.badRequest("Malformed multipart body: " + problem.getMessage()));
    }

    /**
     * A value the database cannot hold (a NUL character, a number out of range) came from the caller. The
     * answer names the kind of value, not the database's own words.
     */
    @ServerExceptionMapper
    public Response unstorableValue(PgException error) {
        String state = error.getSqlState() == null ? "" : error.getSqlState();
        if (!state.startsWith(DATA_EXCEPTION)) {
            return unexpected(error);
        }
        String problem = switch (state) {
            case "22021", "22P05" -> "a text holds a NUL character or a character the service cannot store";
            case "22001" -> "a text is too long";
            case "22003" -> "a number is out of range";
            case "22P02", "22007", "22008" -> "a number, identifier or date is malformed";
            default -> "a value cannot be stored";
        };
        return errors.toResponse(ApiException.badRequest("Invalid value: " + problem));
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable error) {
        LOG.error("Request failed", error);
        return errors.toResponse(new ApiException(500, "Internal server error"));
    }
}
