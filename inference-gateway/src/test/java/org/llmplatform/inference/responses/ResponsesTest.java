package org.llmplatform.inference.responses;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.chat.Callers;
import org.llmplatform.inference.usage.UsageTopic;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/** {@code /v1/responses} served by the embedded engine through the chat path, and stored responses. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@QuarkusTestResource(FakeResponsesUpstreams.class)
class ResponsesTest {

    private static final String STORY = "{\"model\":\"stories260K\",\"input\":\"Once upon a time\",\"temperature\":0,"
            + "\"max_output_tokens\":12";

    private final Callers caller = Callers.fresh("responses");

    @Inject
    Pool pool;

    @Inject
    StoredResponsesPruner pruner;

    private RequestSpecification as(Callers who, String project) {
        return who.request().header("Compat-Project", project);
    }

    private String project() {
        return caller.user + "/agents";
    }

    private Response create(String body) {
        return as(caller, project()).body(body).post("/v1/responses");
    }

    @Test
    void aStringInputIsAnsweredWithAResponseCutByMaxOutputTokens() {
        JsonPath response = create(STORY + "}").then().statusCode(200)
                .body("object", equalTo("response"))
                .body("id", startsWith("resp_"))
                .body("model", equalTo("stories260K"))
                .body("status", equalTo("incomplete"))
                .body("incomplete_details.reason", equalTo("max_output_tokens"))
                .body("output[0].type", equalTo("message"))
                .body("output[0].role", equalTo("assistant"))
                .body("output[0].content[0].type", equalTo("output_text"))
                .body("output[0].content[0].text", startsWith(Callers.GOLDEN))
                .body("usage.output_tokens", equalTo(12))
                .body("usage.input_tokens", greaterThan(0))
                .body("usage.input_tokens_details.cached_tokens", equalTo(0))
                .body("usage.output_tokens_details.reasoning_tokens", equalTo(0))
                .body("max_output_tokens", equalTo(12))
                .body("store", equalTo(true))
                .extract().jsonPath();
        assertEquals(response.getInt("usage.input_tokens") + 12, response.getInt("usage.total_tokens"));
        assertTrue(response.getLong("created_at") > 0);
    }

    @Test
    void aStreamIsTheResponsesEventSequenceWithSequenceNumbers() throws Exception {
        String body = create(STORY + ",\"stream\":true}").then().statusCode(200)
                .header("Content-Type", startsWith("text/event-stream")).extract().asString();
        List<JsonNode> events = ResponseEvents.parse(body);
        List<String> types = ResponseEvents.types(events);
        assertEquals(List.of("response.created", "response.in_progress", "response.output_item.added",
                "response.content_part.added"), types.subList(0, 4), body);
        assertEquals(List.of("response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.incomplete"), types.subList(types.size() - 4, types.size()), body);
        assertTrue(types.subList(4, types.size() - 4).stream().allMatch("response.output_text.delta"::equals), body);
        for (int i = 0; i < events.size(); i++) {
            assertEquals(i, events.get(i).path("sequence_number").asInt(), "sequence numbers count from 0: " + body);
        }
        String text = ResponseEvents.text(events, 0);
        assertTrue(text.startsWith(Callers.GOLDEN), text);
        JsonNode last = events.get(events.size() - 1).path("response");
        assertEquals(text, last.path("output").path(0).path("content").path(0).path("text").asText());
        assertEquals(text, events.get(types.indexOf("response.output_text.done")).path("text").asText());
        assertEquals(12, last.path("usage").path("output_tokens").asInt());
        assertEquals("in_progress", events.get(0).path("response").path("status").asText());
        // the streamed response was stored before it was reported complete
        as(caller, project()).get("/v1/responses/" + last.path("id").asText()).then().statusCode(200)
                .body("output[0].content[0].text", equalTo(text));
    }

    @Test
    void aStoredResponseIsReadContinuedAndDeletedOnlyWithinItsProject() {
        String id = create(STORY + ",\"metadata\":{\"ticket\":\"T-1\"}}").then().statusCode(200).extract().path("id");
        as(caller, project()).get("/v1/responses/" + id).then().statusCode(200)
                .body("id", equalTo(id)).body("metadata.ticket", equalTo("T-1"))
                .body("output[0].content[0].text", startsWith(Callers.GOLDEN));
        as(caller, caller.user + "/elsewhere").get("/v1/responses/" + id).then().statusCode(404)
                .body("error.message", equalTo("Response with id '" + id + "' not found."))
                .body("error.type", equalTo("invalid_request_error"));
        Callers stranger = Callers.fresh("stranger");
        stranger.request().get("/v1/responses/" + id).then().statusCode(404);
        stranger.request().delete("/v1/responses/" + id).then().statusCode(404);
        as(stranger, project()).get("/v1/responses/" + id).then().statusCode(403);

        String requestId = TestIdentities.unique("continued");
        as(caller, project()).header("X-Request-Id", requestId)
                .body("{\"model\":\"stories260K\",\"previous_response_id\":\"" + id + "\",\"input\":\"The end.\","
                        + "\"instructions\":\"Tell a story.\",\"max_output_tokens\":4}")
                .post("/v1/responses").then().statusCode(200).body("previous_response_id", equalTo(id));
        JsonNode messages = UsageTopic.awaitRecord(project(), "chatcmpl-" + requestId).path("request").path("messages");
        List<String> roles = new ArrayList<>();
        messages.forEach(message -> roles.add(message.path("role").asText()));
        assertEquals(List.of("system", "user", "assistant", "user"), roles, messages.toString());
        assertEquals("Once upon a time", messages.path(1).path("content").asText());
        assertTrue(messages.path(2).path("content").asText().startsWith(Callers.GOLDEN), messages.toString());

        as(caller, project()).delete("/v1/responses/" + id).then().statusCode(200)
                .body("id", equalTo(id)).body("object", equalTo("response")).body("deleted", equalTo(true));
        as(caller, project()).get("/v1/responses/" + id).then().statusCode(404);
        as(caller, project()).delete("/v1/responses/" + id).then().statusCode(404);
        create("{\"model\":\"stories260K\",\"previous_response_id\":\"" + id + "\",\"input\":\"more\"}")
                .then().statusCode(400).body("error.param", equalTo("previous_response_id"))
                .body("error.message", equalTo("Previous response with id '" + id + "' not found."));
    }

    @Test
    void aResponseNotStoredCannotBeReadOrContinued() {
        String id = create(STORY + ",\"store\":false}").then().statusCode(200).body("store", equalTo(false))
                .extract().path("id");
        as(caller, project()).get("/v1/responses/" + id).then().statusCode(404);
        create("{\"model\":\"stories260K\",\"previous_response_id\":\"" + id + "\",\"input\":\"more\"}")
                .then().statusCode(400).body("error.param", equalTo("previous_response_id"));
    }

    @Test
    void responsesOlderThanTheRetentionAreForgotten() {
        String kept = create(STORY + "}").then().statusCode(200).extract().path("id");
        String old = create(STORY + "}").then().statusCode(200).extract().path("id");
        pool.preparedQuery("UPDATE inference.responses SET created_at = now() - interval '30 days 1 minute' WHERE id = $1")
                .execute(Tuple.of(old)).await().indefinitely();
        assertTrue(pruner.prune().await().indefinitely() >= 1);
        as(caller, project()).get("/v1/responses/" + old).then().statusCode(404);
        as(caller, project()).get("/v1/responses/" + kept).then().statusCode(200);
    }

    @Test
    void invalidRequestsAreRefusedInTheResponsesErrorShapeNamingTheField() {
        create("{\"model\":\"stories260K\",\"input\":\"hi\",\"temperature\":\"hot\"}").then().statusCode(400)
                .body("error.type", equalTo("invalid_request_error"))
                .body("error.code", equalTo("invalid_type"))
                .body("error.param", equalTo("temperature"))
                .body("error.message", equalTo("Invalid type for 'temperature': expected a decimal, but got a string instead."));
        create("{\"model\":\"stories260K\"}").then().statusCode(400)
                .body("error.param", equalTo("input")).body("error.code", equalTo("missing_required_parameter"));
        create("{\"model\":\"stories260K\",\"input\":[{\"role\":\"robot\",\"content\":\"hi\"}]}").then().statusCode(400)
                .body("error.param", equalTo("input[0].role"));
        create("{\"model\":\"stories260K\",\"input\":\"hi\",\"top_p\":1.5}").then().statusCode(400)
                .body("error.code", equalTo("decimal_above_max_value")).body("error.param", equalTo("top_p"));
        create("{\"model\":\"stories260K\",\"input\":\"hi\",\"text\":{\"format\":{\"type\":\"yaml\"}}}").then()
                .statusCode(400).body("error.param", equalTo("text.format.type"));
        create("{\"model\":\"stories260K\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_image\","
                + "\"image_url\":\"https://example.com/cat.png\"}]}]}").then().statusCode(400)
                .body("error.param", equalTo("input[].content"));
        create("{\"model\":\"stories260K\",\"input\":\"" + "Once upon a time. ".repeat(200) + "\"}").then()
                .statusCode(400).body("error.param", equalTo("input"))
                .body("error.code", equalTo("context_length_exceeded"))
                .body("error.type", equalTo("invalid_request_error"));
        create("{\"model\":\"no-such-model\",\"input\":\"hi\"}").then().statusCode(404)
                .body("error.code", equalTo("model_not_found"));
        caller.request().contentType("application/json").body("{\"model\":\"stories260K\",\"input\":\"hi\"}")
                .header("Authorization", "Bearer not-a-key").post("/v1/responses").then().statusCode(401);
    }

    @Test
    void aFunctionToolIsOfferedToTheEngineWhichAnswersInText() {
        create("{\"model\":\"stories260K\",\"input\":\"Once upon a time\",\"temperature\":0,\"max_output_tokens\":12,"
                + "\"tools\":[{\"type\":\"function\",\"name\":\"get_weather\",\"parameters\":{\"type\":\"object\"}}],"
                + "\"tool_choice\":\"auto\"}").then().statusCode(200)
                .body("output[0].type", equalTo("message"))
                .body("tools[0].name", equalTo("get_weather"))
                .body("tool_choice", equalTo("auto"));
    }

    @Test
    void truncationAutoIsAcceptedAndEchoedAndAnUnknownValueIsA400() {
        create(STORY + ",\"truncation\":\"auto\"}").then().statusCode(200).body("truncation", equalTo("auto"));
        create(STORY + ",\"truncation\":\"middle\"}").then().statusCode(400)
                .body("error.param", equalTo("truncation")).body("error.code", equalTo("invalid_value"));
    }

    @Test
    void theInputItemsOfAStoredResponseAreListedNewestFirstAPageAtATime() {
        String first = create(STORY + "}").then().statusCode(200).extract().path("id");
        String second = create(STORY + ",\"previous_response_id\":\"" + first + "\",\"input\":[{\"role\":\"user\","
                + "\"content\":\"The end.\"}]}").then().statusCode(200).extract().path("id");
        String path = "/v1/responses/" + second + "/input_items";
        JsonPath all = as(caller, project()).get(path).then().statusCode(200)
                .body("object", equalTo("list"))
                .body("data.size()", equalTo(3))
                .body("has_more", equalTo(false))
                .body("data[0].type", equalTo("message"))
                .body("data[0].role", equalTo("user"))
                .body("data[0].content[0].type", equalTo("input_text"))
                .body("data[0].content[0].text", equalTo("The end."))
                .body("data[1].role", equalTo("assistant"))
                .body("data[2].content[0].text", equalTo("Once upon a time"))
                .extract().jsonPath();
        List<String> ids = all.getList("data.id");
        assertEquals(ids.get(0), all.getString("first_id"));
        assertEquals(ids.get(2), all.getString("last_id"));
        assertEquals(3, ids.stream().distinct().count(), ids.toString());

        as(caller, project()).queryParam("order", "asc").queryParam("limit", 2).get(path).then().statusCode(200)
                .body("data.id", equalTo(List.of(ids.get(2), ids.get(1))))
                .body("has_more", equalTo(true));
        as(caller, project()).queryParam("order", "asc").queryParam("after", ids.get(1)).get(path).then().statusCode(200)
                .body("data.id", equalTo(List.of(ids.get(0))))
                .body("has_more", equalTo(false));

        as(caller, project()).queryParam("limit", 0).get(path).then().statusCode(400).body("error.param", equalTo("limit"));
        as(caller, project()).queryParam("limit", "many").get(path).then().statusCode(400).body("error.param", equalTo("limit"));
        as(caller, project()).queryParam("order", "newest").get(path).then().statusCode(400)
                .body("error.param", equalTo("order"));
        as(caller, project()).get("/v1/responses/resp_missing/input_items").then().statusCode(404)
                .body("error.type", equalTo("invalid_request_error"));
    }
}
