package org.llmplatform.inference.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import org.llmplatform.inference.limits.LimitUse;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.ProjectId;

/**
 * A request the gateway accepted to serve: the endpoint's parsed {@code request} and the {@code body} as it came, the
 * project billed and its caller, the client's request id header ({@code requestIdHeader}, maybe null) and the one the
 * response echoes ({@code responseRequestId}), the call that tracks it (maybe null), when it arrived, and the limits
 * it was counted against, which its tokens are charged to when it ends.
 */
public record AdmittedCall<R>(R request, JsonNode body, ProjectId project, Principal caller, String requestIdHeader,
        String responseRequestId, String weaveCallId, Instant arrived, LimitUse limits) {

    /** The same call as another endpoint's request that serves it (a Responses request as a chat completion). */
    public <T> AdmittedCall<T> as(T translated, JsonNode translatedBody) {
        return new AdmittedCall<>(translated, translatedBody, project, caller, requestIdHeader, responseRequestId,
                weaveCallId, arrived, limits);
    }

    AdmittedCall<R> countedAgainst(LimitUse use) {
        return new AdmittedCall<>(request, body, project, caller, requestIdHeader, responseRequestId, weaveCallId,
                arrived, use);
    }

    public String user() {
        return caller.userName();
    }
}
