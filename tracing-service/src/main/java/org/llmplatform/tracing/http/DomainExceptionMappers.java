package org.llmplatform.tracing.http;

import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.error.ErrorResponses;
import org.llmplatform.tracing.common.RefusedWriteException;
import org.llmplatform.tracing.query.InvalidQueryException;

/** The HTTP answers to the caller's mistakes that queries and stores report in their own terms. */
public class DomainExceptionMappers {

    private final ErrorResponses errors;

    public DomainExceptionMappers(ErrorResponses errors) {
        this.errors = errors;
    }

    /**
     * As the reference answers a wrong query: a shape error is a FastAPI 422 naming the spot in the body, a
     * field that may not be queried a 422 with a reason, anything else a 400.
     */
    @ServerExceptionMapper
    public Response invalidQuery(InvalidQueryException error) {
        return errors.toResponse(switch (error.kind()) {
            case MALFORMED -> ApiException.invalidField(error.type(), inBody(error.at()), error.getMessage(), null);
            case FIELD_NOT_ALLOWED -> new ApiException(422, error.getMessage());
            case UNSUPPORTED -> ApiException.badRequest(error.getMessage());
        });
    }

    @ServerExceptionMapper
    public Response refusedWrite(RefusedWriteException error) {
        return errors.toResponse(switch (error.reason()) {
            case UNSTORABLE_VALUE -> ApiException.badRequest(error.getMessage());
            case DUPLICATE_ID -> ApiException.conflict(error.getMessage());
        });
    }

    private static List<Object> inBody(List<Object> at) {
        List<Object> loc = new ArrayList<>();
        loc.add("body");
        loc.addAll(at);
        return loc;
    }
}
