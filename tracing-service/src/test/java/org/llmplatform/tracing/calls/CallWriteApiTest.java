package org.llmplatform.tracing.calls;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallWriteApiTest {

    private static final String T0 = "2025-01-01T12:00:00Z";
    private static final String T1 = "2025-01-01T12:00:01Z";

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("writer");
    }

    @Test
    void aBatchAnswersEachItemInOrderAndMergesEndsBeforeStarts() {
        String first = UUID.randomUUID().toString();
        String second = UUID.randomUUID().toString();
        Map<String, Object> generated = client.start(null, "gen", T0);
        generated.remove("id");
        List<Object> batch = List.of(
                Map.of("mode", "end", "req", Map.of("end", client.end(first, T1))),
                Map.of("mode", "start", "req", Map.of("start", client.start(first, "op", T0))),
                Map.of("req", Map.of("start", client.start(second, "op", T0))),
                Map.of("req", Map.of("end", client.end(second, T1))),
                Map.of("req", Map.of("start", generated)));
        client.post("/call/upsert_batch", Map.of("batch", batch)).statusCode(200)
                .body("res.size()", equalTo(5))
                .body("res[0]", equalTo(Map.of()))
                .body("res[1]", equalTo(Map.of("id", first, "trace_id", "trace-" + first)))
                .body("res[2].id", equalTo(second))
                .body("res[3]", equalTo(Map.of()))
                .body("res[4].id", org.hamcrest.Matchers.matchesPattern("[0-9a-f-]{36}"));

        client.post("/call/read", Map.of("project_id", client.project, "id", first)).statusCode(200)
                .body("call.ended_at", equalTo(T1))
                .body("call.summary.weave.status", equalTo("success"));
        client.post("/call/read", Map.of("project_id", client.project, "id", second)).statusCode(200)
                .body("call.summary.weave.latency_ms", equalTo(1000));
    }

    @Test
    void anInvalidItemFailsTheWholeBatchNamingIt() {
        String id = UUID.randomUUID().toString();
        Map<String, Object> broken = client.start(UUID.randomUUID().toString(), "op", T0);
        broken.remove("op_name");
        List<Object> batch = List.of(Map.of("req", Map.of("start", client.start(id, "op", T0))),
                Map.of("mode", "start", "req", Map.of("start", broken)));
        client.post("/call/upsert_batch", Map.of("batch", batch)).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "batch", 1, "req", "start", "op_name")));
        client.post("/call/read", Map.of("project_id", client.project, "id", id)).body("call", nullValue());

        client.post("/call/upsert_batch", Map.of("batch", List.of(Map.of("mode", "finish",
                "req", Map.of("end", client.end(id, T1)))))).statusCode(400).body("reason", equalTo("Invalid mode"));
        client.post("/call/upsert_batch", Map.of("batch", List.of(Map.of("mode", "start",
                "req", Map.of("end", client.end(id, T1)))))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "batch", 0, "req", "start")));
    }

    @Test
    void anUpdateRenamesClearsAndNeedsADisplayName() {
        String id = UUID.randomUUID().toString();
        client.write(List.of(client.start(id, "op", T0)), List.of());
        client.post("/call/update", Map.of("project_id", client.project, "call_id", id, "display_name", "renamed",
                "svc_user_id", "ignored")).statusCode(200).body("", equalTo(Map.of()));
        client.post("/call/read", Map.of("project_id", client.project, "id", id))
                .body("call.display_name", equalTo("renamed"))
                .body("call.summary.weave.display_name", equalTo("renamed"));

        client.post("/call/update", Map.of("project_id", client.project, "call_id", id, "display_name", ""))
                .statusCode(200);
        client.post("/call/read", Map.of("project_id", client.project, "id", id)).body("call.display_name", nullValue());

        client.post("/call/update", Map.of("project_id", client.project, "call_id", id)).statusCode(400)
                .body("reason", equalTo("One of [display_name] is required for call update"));
        client.post("/call/update", Map.of("project_id", client.project, "call_id", id, "display_name", "x",
                "other", 1)).statusCode(422);
    }

    @Test
    void updatingAnUnknownCallIsAcceptedAndStaysInvisibleUntilItsStart() {
        String id = UUID.randomUUID().toString();
        client.post("/call/update", Map.of("project_id", client.project, "call_id", id, "display_name", "early"))
                .statusCode(200);
        client.post("/call/read", Map.of("project_id", client.project, "id", id)).body("call", nullValue());
        client.write(List.of(client.start(id, "op", T0)), List.of());
        client.post("/call/read", Map.of("project_id", client.project, "id", id)).body("call.display_name", equalTo("early"));
    }

    @Test
    void deletingACallDeletesItsDescendantsButNotItsParentOrSiblings() {
        String root = "root-" + UUID.randomUUID();
        String child = "child-" + UUID.randomUUID();
        String grandchild = "grandchild-" + UUID.randomUUID();
        String sibling = "sibling-" + UUID.randomUUID();
        client.write(List.of(client.start(root, "op", T0), childOf(root, child), childOf(child, grandchild),
                childOf(root, sibling)), List.of());

        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", List.of(child),
                "wb_user_id", "ignored")).statusCode(200).body("num_deleted", equalTo(2));

        assertEquals(Set.of(root, sibling), Set.copyOf(client.ids(Map.of())));
        client.post("/call/read", Map.of("project_id", client.project, "id", grandchild)).body("call", nullValue());
        client.post("/calls/query_stats", Map.of("project_id", client.project)).body("count", equalTo(2));
    }

    @Test
    void theDeletedCountIncludesEveryRequestedIdEvenUnknownOnes() {
        String root = "root-" + UUID.randomUUID();
        String child = "child-" + UUID.randomUUID();
        client.write(List.of(client.start(root, "op", T0), childOf(root, child)), List.of());
        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", List.of(root, "no-such-call")))
                .statusCode(200).body("num_deleted", equalTo(3));
        assertEquals(List.of(), client.ids(Map.of()));
    }

    @Test
    void moreThanAThousandIdsIsTooLarge() {
        List<String> ids = new ArrayList<>(IntStream.range(0, 1001).mapToObj(i -> "id-" + i).toList());
        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", ids)).statusCode(413)
                .body("reason", equalTo("Request too large"));
        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", ids.subList(0, 1000)))
                .statusCode(200).body("num_deleted", equalTo(1000));
    }

    @Test
    void aPartOverThreeAndAHalfMebibytesLosesItsLargestColumn() {
        String id = UUID.randomUUID().toString();
        Map<String, Object> start = client.start(id, "op", T0);
        start.put("inputs", Map.of("blob", "x".repeat(3_700_000)));
        start.put("attributes", Map.of("kept", true));
        client.write(List.of(start), List.of());
        client.post("/call/read", Map.of("project_id", client.project, "id", id)).statusCode(200)
                .body("call.inputs", equalTo(Map.of("_weave", Map.of("error", "<EXCEEDS_LIMITS>"))))
                .body("call.attributes", equalTo(Map.of("kept", true)));
    }

    private Map<String, Object> childOf(String parent, String id) {
        Map<String, Object> start = client.start(id, "op", T0);
        start.put("parent_id", parent);
        start.put("trace_id", "trace-" + parent);
        return start;
    }
}
