package org.llmplatform.inference.http;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** A JSON-body endpoint that exists only in tests, so the body-validation shape is checked over HTTP. */
@Path("/test/probe")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class BodyProbeResource {

    public record Probe(int temperature) {
    }

    @POST
    public Probe echo(Probe probe) {
        return probe;
    }
}
