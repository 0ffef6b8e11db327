package org.llmplatform.tracing.objects;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** The reference's ObjectDeletedError body: the reason plus when the version was deleted. */
public class ObjectDeletedMapper {

    @ServerExceptionMapper
    public Response deleted(ObjectDeletedException error) {
        return Response.status(404).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("reason", error.getMessage(), "deleted_at", error.deletedAt())).build();
    }
}
