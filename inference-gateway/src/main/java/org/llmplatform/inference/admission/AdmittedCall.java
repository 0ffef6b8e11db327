package org.llmplatform.inference.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.ProjectId;

/**
 * A request the gateway accepted to serve: the endpoint's parsed {@code request} and the {@code body} as it came, the
 * project billed and its caller, the client's request id header ({@code requestIdHeader}, maybe null) and the one the
 * response echoes ({@code responseRequestId}), the call that tracks it (maybe null), and when it arrived.
 */
public record AdmittedCall<R>(R request, JsonNode body, ProjectId project, Principal caller, String requestIdHeader,
        String responseRequestId, String weaveCallId, Instant arrived) {

    public String user() {
        return caller.userName();
    }
}
