package org.llmplatform.tracing.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.llmplatform.tracing.service.CallSchema;
import org.llmplatform.tracing.service.EndedCall;
import org.llmplatform.tracing.service.StartedCall;

/** The request and response envelopes of the call endpoints, as the reference names them. */
final class CallEnvelopes {

    @StrictRequest
    @RegisterForReflection
    record CallStartReq(StartedCall start) {
    }

    @StrictRequest
    @RegisterForReflection
    record CallEndReq(EndedCall end) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallReadReq(String projectId, String id, boolean includeCosts, boolean includeStorageSize,
            boolean includeTotalStorageSize) {
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record CallReadRes(CallSchema call) {
    }

    private CallEnvelopes() {
    }
}
