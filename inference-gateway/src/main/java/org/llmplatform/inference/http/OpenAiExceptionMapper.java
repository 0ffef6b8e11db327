package org.llmplatform.inference.http;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Renders {@link OpenAiException}s with their own type, code, param and headers. */
public class OpenAiExceptionMapper {

    @ServerExceptionMapper
    public Response openAiError(OpenAiException error) {
        Response.ResponseBuilder response = Response.status(error.status()).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(OpenAiErrorFormat.errorBody(error));
        error.headers().forEach(response::header);
        return response.build();
    }
}
