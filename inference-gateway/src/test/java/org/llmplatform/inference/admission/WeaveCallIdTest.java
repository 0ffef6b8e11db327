package org.llmplatform.inference.admission;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.chat.Callers;
import org.llmplatform.inference.usage.UsageTopic;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/** The call a caller says tracks its request travels in the request's usage record. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class WeaveCallIdTest {

    private static final String SHORT = Callers.onceUponATime("\"temperature\":0,\"max_tokens\":3");
    private static final String SHORT_STREAM = Callers.onceUponATime("\"temperature\":0,\"max_tokens\":3,\"stream\":true");

    @Test
    void theNamedCallIsInTheUsageRecordOfACompletionAndOfAStream() {
        Callers caller = Callers.fresh("tracked");
        String project = caller.user + "/inference";
        for (String body : new String[] {SHORT, SHORT_STREAM}) {
            String requestId = TestIdentities.unique("req");
            String callId = UUID.randomUUID().toString();
            caller.request().header("X-Request-Id", requestId).header(UsageRecord.WEAVE_CALL_HEADER, callId).body(body)
                    .post("/v1/chat/completions").then().statusCode(200);
            JsonNode usage = UsageTopic.awaitRecord(project, "chatcmpl-" + requestId);
            assertEquals(callId, usage.path("weave_call_id").asText(), usage.toString());
            assertTrue(usage.path("completion_tokens").asLong() > 0, usage.toString());
        }
    }

    @Test
    void aRequestNamingNoCallHasNoneInItsRecord() {
        Callers caller = Callers.fresh("untracked");
        String requestId = TestIdentities.unique("req");
        caller.request().header("X-Request-Id", requestId).body(SHORT).post("/v1/chat/completions").then().statusCode(200);
        JsonNode usage = UsageTopic.awaitRecord(caller.user + "/inference", "chatcmpl-" + requestId);
        assertTrue(usage.path("weave_call_id").isNull() || usage.path("weave_call_id").isMissingNode(), usage.toString());
    }

    @Test
    void aMalformedCallIdIsRefusedNamingTheHeader() {
        Callers caller = Callers.fresh("badcall");
        caller.request().header(UsageRecord.WEAVE_CALL_HEADER, "not a call id; drop table").body(SHORT)
                .post("/v1/chat/completions").then().statusCode(422)
                .body("error.type", equalTo("invalid_request_error"))
                .body("error.param", equalTo(UsageRecord.WEAVE_CALL_HEADER));
    }
}
