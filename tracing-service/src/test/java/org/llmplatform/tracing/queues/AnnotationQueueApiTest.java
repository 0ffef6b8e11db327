package org.llmplatform.tracing.queues;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.tracing.TraceClient;
import org.llmplatform.tracing.calls.CallQueryApiTest;

/**
 * Annotation queues as Weave's trace server keeps them (its {@code AnnotationQueuesMixin} and query builder): the
 * queue's lifecycle, adding calls with duplicates counted, each annotator's progress and its transitions, stats,
 * and feedback given through a queue.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AnnotationQueueApiTest {

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("queues");
    }

    @Test
    void aQueueIsCreatedReadListedUpdatedAndSoftDeleted() {
        String id = create("Error Review", List.of("weave:///" + client.project + "/object/severity:abc"));
        read(id).statusCode(200)
                .body("queue.id", equalTo(id))
                .body("queue.project_id", equalTo(client.project))
                .body("queue.name", equalTo("Error Review"))
                .body("queue.description", equalTo(""))
                .body("queue.scorer_refs", equalTo(List.of("weave:///" + client.project + "/object/severity:abc")))
                .body("queue.created_by", equalTo(client.user))
                .body("queue.created_at", matchesPattern("\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z"))
                .body("queue.deleted_at", nullValue());
        String second = create("second", List.of());
        String third = create("Third", List.of());

        assertEquals(List.of(third, second, id), queueIds(Map.of()), "newest first by default");
        assertEquals(List.of(id, second, third), queueIds(Map.of("sort_by", List.of(Map.of("field", "created_at",
                "direction", "asc")))));
        assertEquals(List.of(id, third, second), queueIds(Map.of("sort_by", List.of(Map.of("field", "not_sortable",
                "direction", "asc"), Map.of("field", "name", "direction", "asc")))),
                "unknown sort fields are dropped; names compare by code point, as ClickHouse compares them");
        assertEquals(List.of(id), queueIds(Map.of("name", "ERROR")), "name matches case-insensitively, in part");
        assertEquals(List.of(second), queueIds(Map.of("limit", 1, "offset", 1)));

        String createdAt = read(id).extract().path("queue.created_at");
        update(id, Map.of()).statusCode(200).body("queue.updated_at", equalTo(createdAt));
        update(id, Map.of("description", "calls that raised")).statusCode(200)
                .body("queue.name", equalTo("Error Review"))
                .body("queue.description", equalTo("calls that raised"));
        String updatedAt = read(id).extract().path("queue.updated_at");
        assertNotEquals(createdAt, updatedAt);
        update(id, Map.of("name", "Errors", "scorer_refs", List.of())).statusCode(200)
                .body("queue.name", equalTo("Errors"))
                .body("queue.scorer_refs", equalTo(List.of()))
                .body("queue.description", equalTo("calls that raised"));

        String deletedAt = delete(id).statusCode(200)
                .body("queue.id", equalTo(id))
                .body("queue.name", equalTo("Errors"))
                .extract().path("queue.deleted_at");
        assertTrue(deletedAt != null && deletedAt.endsWith("Z"));
        read(id).statusCode(404).body("reason", equalTo("Queue " + id + " not found"));
        update(id, Map.of("name", "again")).statusCode(404)
                .body("reason", equalTo("Queue " + id + " not found or already deleted"));
        delete(id).statusCode(404).body("reason", equalTo("Queue " + id + " not found or already deleted"));
        assertEquals(List.of(third, second), queueIds(Map.of()));
    }

    @Test
    void addingCallsCopiesTheirDetailsAndCountsDuplicates() {
        writeCalls();
        String queue = create("review", List.of());
        addCalls(queue, List.of("c1", "c2")).statusCode(200)
                .body("added_count", equalTo(2)).body("duplicates", equalTo(0));
        addCalls(queue, List.of("c1", "c2", "c3")).statusCode(200)
                .body("added_count", equalTo(1)).body("duplicates", equalTo(2));
        addCalls(queue, List.of("c1", "c1", "c3")).statusCode(200)
                .body("added_count", equalTo(0)).body("duplicates", equalTo(3));
        addCalls(queue, List.of("c1", "unknown")).statusCode(200)
                .body("added_count", equalTo(0)).body("duplicates", equalTo(1));

        List<Map<String, Object>> items = items(queue, Map.of("sort_by", List.of(Map.of("field", "call_started_at",
                "direction", "asc"))));
        assertEquals(List.of("c1", "c2", "c3"), items.stream().map(item -> item.get("call_id")).toList());
        Map<String, Object> third = items.get(2);
        assertEquals(queue, third.get("queue_id"));
        assertEquals(client.project, third.get("project_id"));
        assertEquals("op-c3", third.get("call_op_name"));
        assertEquals("trace-c3", third.get("call_trace_id"));
        assertEquals(CallQueryApiTest.at(3), third.get("call_started_at"));
        assertEquals(CallQueryApiTest.at(9), third.get("call_ended_at"));
        assertNull(items.get(0).get("call_ended_at"));
        assertEquals(List.of("inputs.prompt", "output"), third.get("display_fields"));
        assertEquals(client.user, third.get("added_by"));
        assertEquals(client.user, third.get("created_by"));
        assertEquals("unstarted", third.get("annotation_state"));
        assertNull(third.get("annotator_user_id"));
        assertTrue(third.containsKey("position_in_queue") && third.get("position_in_queue") == null);

        List<Map<String, Object>> positioned = items(queue, Map.of("include_position", true, "sort_by",
                List.of(Map.of("field", "call_started_at", "direction", "desc")), "limit", 2, "offset", 1));
        assertEquals(List.of("c2", "c1"), positioned.stream().map(item -> item.get("call_id")).toList());
        assertEquals(List.of(2, 3), positioned.stream().map(item -> item.get("position_in_queue")).toList());
        assertEquals(List.of("c2"), items(queue, Map.of("filter", Map.of("call_id", "c2"))).stream()
                .map(item -> item.get("call_id")).toList());
        assertEquals(List.of("c1"), items(queue, Map.of("filter", Map.of("call_trace_id", "trace-c1"))).stream()
                .map(item -> item.get("call_id")).toList());
    }

    @Test
    void progressMovesOnlyAsTheReferenceAllows() {
        writeCalls();
        String queue = create("review", List.of());
        addCalls(queue, List.of("c1", "c2", "c3")).statusCode(200);
        Map<String, String> itemIds = new HashMap<>();
        items(queue, Map.of()).forEach(item -> itemIds.put((String) item.get("call_id"), (String) item.get("id")));
        String first = itemIds.get("c1");

        progress(queue, first, "in_progress").statusCode(200)
                .body("item.id", equalTo(first))
                .body("item.call_id", equalTo("c1"))
                .body("item.annotation_state", equalTo("in_progress"))
                .body("item.annotator_user_id", equalTo(client.user));
        progress(queue, first, "in_progress").statusCode(200).body("item.annotation_state", equalTo("in_progress"));
        progress(queue, first, "completed").statusCode(200).body("item.annotation_state", equalTo("completed"));
        progress(queue, first, "completed").statusCode(200).body("item.annotation_state", equalTo("completed"));
        progress(queue, first, "skipped").statusCode(400).body("reason", equalTo("Invalid state transition from "
                + "'completed' to 'skipped'. Only transitions from 'in_progress' or 'unstarted' are allowed."));
        progress(queue, first, "in_progress").statusCode(400).body("reason", equalTo("Cannot transition to "
                + "'in_progress' when a record already exists. 'in_progress' can only be set on new items."));
        progress(queue, itemIds.get("c2"), "unstarted").statusCode(400).body("reason",
                equalTo("Invalid annotation_state 'unstarted'. Must be one of: completed, in_progress, skipped"));
        progress(queue, itemIds.get("c2"), "skipped").statusCode(200).body("item.annotation_state", equalTo("skipped"));
        progress(queue, "no-such-item", "completed").statusCode(400)
                .body("reason", equalTo("Queue item 'no-such-item' not found in queue '" + queue + "'"));
        String otherQueue = create("other", List.of());
        progress(otherQueue, itemIds.get("c3"), "completed").statusCode(400);

        assertEquals(List.of("c1"), callIds(items(queue, Map.of("filter", Map.of("annotation_states", List.of("completed"))))));
        assertEquals(List.of("c3"), callIds(items(queue, Map.of("filter", Map.of("annotation_states", List.of("unstarted"))))));
        assertEquals(2, items(queue, Map.of("filter", Map.of("annotation_states", List.of("completed", "skipped")))).size());
        itemsQuery(queue, Map.of("filter", Map.of("annotation_states", List.of("done")))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "filter", "annotation_states", 0)));
    }

    @Test
    void eachAnnotatorMovesTheirOwnProgressAndTheItemShowsTheLatest() {
        TraceClient first = new TraceClient("queues-first");
        TraceClient second = new TraceClient("queues-second");
        String team = TestIdentities.unique("queues-team");
        TestIdentities.team(team, first.user, second.user);
        String project = team + "/p";
        Map<String, Object> start = first.start("c1", "op", CallQueryApiTest.at(1));
        start.put("project_id", project);
        first.post("/call/upsert_batch", Map.of("batch", List.of(Map.of("mode", "start", "req", Map.of("start", start)))))
                .statusCode(200);
        String queue = first.post("/annotation_queues", Map.of("project_id", project, "name", "shared",
                "scorer_refs", List.of())).statusCode(200).extract().path("id");
        first.post("/annotation_queues/" + queue + "/items", Map.of("project_id", project, "call_ids", List.of("c1"),
                "display_fields", List.of())).statusCode(200).body("added_count", equalTo(1));
        String item = first.post("/annotation_queues/" + queue + "/items/query", Map.of("project_id", project))
                .statusCode(200).extract().path("items[0].id");
        String path = "/annotation_queues/" + queue + "/items/" + item + "/progress";

        first.post(path, Map.of("project_id", project, "annotation_state", "in_progress")).statusCode(200)
                .body("item.annotation_state", equalTo("in_progress")).body("item.annotator_user_id", equalTo(first.user));
        second.post(path, Map.of("project_id", project, "annotation_state", "completed")).statusCode(200)
                .body("item.annotation_state", equalTo("completed")).body("item.annotator_user_id", equalTo(second.user));
        first.post(path, Map.of("project_id", project, "annotation_state", "in_progress")).statusCode(200)
                .body("item.annotation_state", equalTo("completed"));
        first.post(path, Map.of("project_id", project, "annotation_state", "skipped")).statusCode(200)
                .body("item.annotation_state", equalTo("skipped")).body("item.annotator_user_id", equalTo(first.user));
        second.post(path, Map.of("project_id", project, "annotation_state", "skipped")).statusCode(400);
        second.post("/annotation_queues/stats", Map.of("project_id", project, "queue_ids", List.of(queue)))
                .statusCode(200).body("stats[0].total_items", equalTo(1)).body("stats[0].completed_items", equalTo(1));
    }

    @Test
    void statsCountEveryItemAndThoseCompletedOrSkipped() {
        writeCalls();
        String queue = create("review", List.of());
        String empty = create("empty", List.of());
        addCalls(queue, List.of("c1", "c2", "c3")).statusCode(200);
        Map<String, String> itemIds = new HashMap<>();
        items(queue, Map.of()).forEach(item -> itemIds.put((String) item.get("call_id"), (String) item.get("id")));
        progress(queue, itemIds.get("c1"), "completed").statusCode(200);
        progress(queue, itemIds.get("c2"), "skipped").statusCode(200);
        progress(queue, itemIds.get("c3"), "in_progress").statusCode(200);

        client.post("/annotation_queues/stats", Map.of("project_id", client.project,
                "queue_ids", List.of(empty, queue, "unknown"))).statusCode(200)
                .body("stats", equalTo(List.of(
                        Map.of("queue_id", empty, "total_items", 0, "completed_items", 0),
                        Map.of("queue_id", queue, "total_items", 3, "completed_items", 2),
                        Map.of("queue_id", "unknown", "total_items", 0, "completed_items", 0))));
        client.post("/annotation_queues/stats", Map.of("project_id", client.project, "queue_ids", List.of()))
                .statusCode(200).body("stats", equalTo(List.of()));
    }

    @Test
    void feedbackGivenThroughALiveQueueCarriesItsId() {
        writeCalls();
        String queue = create("review", List.of());
        client.post("/feedback/create", feedback("c1", queue)).statusCode(200);
        client.post("/feedback/create", feedback("c2", null)).statusCode(200);
        List<Map<String, Object>> stored = client.post("/feedback/query", Map.of("project_id", client.project,
                "fields", List.of("weave_ref", "queue_id"), "sort_by", List.of(Map.of("field", "weave_ref",
                        "direction", "asc")))).statusCode(200).extract().path("result");
        assertEquals(queue, stored.get(0).get("queue_id"));
        assertNull(stored.get(1).get("queue_id"));
        client.post("/feedback/query", Map.of("project_id", client.project, "query", Map.of("$expr", Map.of("$eq",
                List.of(Map.of("$getField", "queue_id"), Map.of("$literal", queue)))), "fields", List.of("weave_ref")))
                .statusCode(200).body("result.weave_ref", equalTo(List.of("weave:///" + client.project + "/call/c1")));

        client.post("/feedback/create", feedback("c1", "no-such-queue")).statusCode(400)
                .body("reason", equalTo("Queue no-such-queue not found or has been deleted"));
        TraceClient other = new TraceClient("queues-other");
        String othersQueue = given().header("Authorization", "Bearer " + other.key).contentType(ContentType.JSON)
                .body(Map.of("project_id", other.project, "name", "theirs", "scorer_refs", List.of()))
                .post("/annotation_queues").then().statusCode(200).extract().path("id");
        client.post("/feedback/create", feedback("c1", othersQueue)).statusCode(400)
                .body("reason", equalTo("Queue " + othersQueue + " not found or has been deleted"));

        String deleted = create("gone", List.of());
        delete(deleted).statusCode(200);
        client.post("/feedback/batch/create", Map.of("batch", List.of(feedback("c2", queue), feedback("c3", deleted))))
                .statusCode(400).body("reason", equalTo("Queue " + deleted + " not found or has been deleted"));
        client.post("/feedback/query", Map.of("project_id", client.project, "fields", List.of("count(*)")))
                .body("result[0].'count(*)'", equalTo(2));
        client.post("/feedback/batch/create", Map.of("batch", List.of(feedback("c2", queue), feedback("c3", queue))))
                .statusCode(200).body("res.size()", equalTo(2));
        client.post("/feedback/query", Map.of("project_id", client.project, "fields", List.of("count(*)"),
                "query", Map.of("$expr", Map.of("$eq", List.of(Map.of("$getField", "queue_id"), Map.of("$literal", queue))))))
                .body("result[0].'count(*)'", equalTo(3));
    }

    @Test
    void badInputIsA4xxNamingTheField() {
        client.post("/annotation_queues", Map.of("project_id", client.project, "scorer_refs", List.of()))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "name")));
        client.post("/annotation_queues", Map.of("project_id", client.project, "name", "q"))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "scorer_refs")));
        client.post("/annotation_queues", Map.of("project_id", client.project, "name", "q", "scorer_refs", List.of(),
                "colour", "red")).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "colour")));
        client.post("/annotation_queues", Map.of("project_id", client.project, "name", "q",
                "scorer_refs", List.of("x".repeat(513)))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "scorer_refs", 0)));
        String queue = create("q", List.of());
        client.post("/annotation_queues/" + queue + "/items", Map.of("project_id", client.project,
                "display_fields", List.of())).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "call_ids")));
        client.post("/annotation_queues/" + queue + "/items", Map.of("project_id", client.project,
                "call_ids", List.of("c1"))).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "display_fields")));
        client.post("/annotation_queues/" + queue + "/items", Map.of("project_id", client.project,
                "call_ids", List.of("c".repeat(129)), "display_fields", List.of())).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "call_ids", 0)));
        client.post("/annotation_queues/" + queue + "/items/some-item/progress", Map.of("project_id", client.project))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "annotation_state")));
        itemsQuery(queue, Map.of("sort_by", List.of(Map.of("field", "created_at", "direction", "up")))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "sort_by", 0, "direction")));
        itemsQuery(queue, Map.of("limit", -1)).statusCode(400);
        given().header("Authorization", "Bearer " + client.key).get("/annotation_queues/" + queue).then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("query", "project_id")));
        read("q".repeat(129)).statusCode(422).body("detail[0].loc", equalTo(List.of("path", "queue_id")));
        client.post("/annotation_queues/stats", Map.of("project_id", client.project)).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "queue_ids")));
    }

    @Test
    void aStrangerIsRefusedBeforeAnythingIsValidated() {
        String queue = create("mine", List.of());
        TraceClient stranger = new TraceClient("queues-stranger");
        Map<String, Object> invalid = Map.of("project_id", client.project, "unknown_key", true);
        for (String path : List.of("/annotation_queues", "/annotation_queues/query", "/annotation_queues/stats",
                "/annotation_queues/" + queue + "/items", "/annotation_queues/" + queue + "/items/query",
                "/annotation_queues/" + queue + "/items/x/progress")) {
            stranger.post(path, invalid).statusCode(403);
        }
        given().header("Authorization", "Bearer " + stranger.key).contentType(ContentType.JSON).body(invalid)
                .put("/annotation_queues/" + queue).then().statusCode(403);
        given().header("Authorization", "Bearer " + stranger.key).queryParam("project_id", client.project)
                .get("/annotation_queues/" + "q".repeat(200)).then().statusCode(403);
        given().header("Authorization", "Bearer " + stranger.key).queryParam("project_id", client.project)
                .delete("/annotation_queues/" + queue).then().statusCode(403);
        read(queue).statusCode(200).body("queue.deleted_at", nullValue());
    }

    private String create(String name, List<String> scorerRefs) {
        return client.post("/annotation_queues", Map.of("project_id", client.project, "name", name,
                "scorer_refs", scorerRefs)).statusCode(200).body("id", matchesPattern("[0-9a-f-]{36}"))
                .extract().path("id");
    }

    private ValidatableResponse read(String queueId) {
        return given().header("Authorization", "Bearer " + client.key).queryParam("project_id", client.project)
                .get("/annotation_queues/" + queueId).then();
    }

    private ValidatableResponse update(String queueId, Map<String, Object> fields) {
        Map<String, Object> body = new HashMap<>(fields);
        body.put("project_id", client.project);
        return given().header("Authorization", "Bearer " + client.key).contentType(ContentType.JSON).body(body)
                .put("/annotation_queues/" + queueId).then();
    }

    private ValidatableResponse delete(String queueId) {
        return given().header("Authorization", "Bearer " + client.key).queryParam("project_id", client.project)
                .delete("/annotation_queues/" + queueId).then();
    }

    private List<String> queueIds(Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(extra);
        body.put("project_id", client.project);
        String lines = client.post("/annotation_queues/query", body).statusCode(200).extract().asString();
        return TraceClient.parseLines(lines).stream().map(queue -> (String) queue.get("id")).toList();
    }

    private ValidatableResponse addCalls(String queueId, List<String> callIds) {
        return client.post("/annotation_queues/" + queueId + "/items", Map.of("project_id", client.project,
                "call_ids", callIds, "display_fields", List.of("inputs.prompt", "output")));
    }

    private ValidatableResponse itemsQuery(String queueId, Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(extra);
        body.put("project_id", client.project);
        return client.post("/annotation_queues/" + queueId + "/items/query", body);
    }

    private List<Map<String, Object>> items(String queueId, Map<String, Object> extra) {
        return itemsQuery(queueId, extra).statusCode(200).extract().path("items");
    }

    private ValidatableResponse progress(String queueId, String itemId, String state) {
        return client.post("/annotation_queues/" + queueId + "/items/" + itemId + "/progress",
                Map.of("project_id", client.project, "annotation_state", state));
    }

    private static List<Object> callIds(List<Map<String, Object>> items) {
        return items.stream().map(item -> item.get("call_id")).toList();
    }

    /** c1..c3 started a second apart, each with its own op and trace; only c3 has ended. */
    private void writeCalls() {
        List<Map<String, Object>> starts = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            starts.add(client.start("c" + i, "op-c" + i, CallQueryApiTest.at(i)));
        }
        client.write(starts, List.of(client.end("c3", CallQueryApiTest.at(9))));
    }

    private Map<String, Object> feedback(String callId, String queueId) {
        Map<String, Object> body = new HashMap<>();
        body.put("project_id", client.project);
        body.put("weave_ref", "weave:///" + client.project + "/call/" + callId);
        body.put("feedback_type", "custom");
        body.put("payload", Map.of("label", "good"));
        if (queueId != null) {
            body.put("queue_id", queueId);
        }
        return body;
    }
}
