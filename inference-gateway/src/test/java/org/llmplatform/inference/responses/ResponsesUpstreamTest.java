package org.llmplatform.inference.responses;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.chat.Callers;
import org.llmplatform.inference.usage.UsageTopic;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * {@code /v1/responses} against upstreams: translated for one that speaks only chat completions (function calls both
 * ways, streamed and not, and the requests Codex sends), relayed as it is to one that speaks the Responses API.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@QuarkusTestResource(FakeResponsesUpstreams.class)
class ResponsesUpstreamTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WEATHER_TOOL = "\"tools\":[{\"type\":\"function\",\"name\":\"get_weather\","
            + "\"description\":\"The weather of a city\",\"parameters\":{\"type\":\"object\",\"properties\":"
            + "{\"city\":{\"type\":\"string\"}}}}]";

    private final Callers caller = Callers.fresh("responses-up");
    private final String project = caller.user + "/agents";

    private Response create(String requestId, String body) {
        return caller.request().header("Compat-Project", project).header("X-Request-Id", requestId).body(body)
                .post("/v1/responses");
    }

    private static JsonObject lastOf(Queue<JsonObject> bodies) {
        JsonObject last = null;
        for (JsonObject body : bodies) {
            last = body;
        }
        return last;
    }

    @Test
    void aFunctionCallRoundTripsThroughAChatOnlyUpstream() {
        Response first = create(TestIdentities.unique("tools"), "{\"model\":\"chat-tools\",\"input\":"
                + "\"What is the weather in Paris?\"," + WEATHER_TOOL + ",\"tool_choice\":\"auto\"}");
        first.then().statusCode(200)
                .body("status", equalTo("completed"))
                .body("output.size()", equalTo(1))
                .body("output[0].type", equalTo("function_call"))
                .body("output[0].name", equalTo("get_weather"))
                .body("output[0].call_id", equalTo("call_weather_1"))
                .body("output[0].arguments", equalTo(FakeResponsesUpstreams.WEATHER_ARGUMENTS))
                .body("output[0].status", equalTo("completed"))
                .body("usage.input_tokens", equalTo(9)).body("usage.output_tokens", equalTo(4))
                .body("usage.total_tokens", equalTo(13));
        JsonObject chat = lastOf(FakeResponsesUpstreams.CHAT_BODIES);
        assertEquals("tool-caller", chat.getString("model"));
        assertEquals("get_weather", chat.getJsonArray("tools").getJsonObject(0).getJsonObject("function").getString("name"));
        assertEquals("function", chat.getJsonArray("tools").getJsonObject(0).getString("type"));
        assertFalse(chat.containsKey("tool_choice"), "auto is the chat default: " + chat);

        String requestId = TestIdentities.unique("tool-output");
        create(requestId, "{\"model\":\"chat-tools\",\"previous_response_id\":\"" + first.path("id") + "\","
                + WEATHER_TOOL + ",\"input\":[{\"type\":\"function_call_output\",\"call_id\":\"call_weather_1\","
                + "\"output\":\"Sunny, 21 C\"}]}").then().statusCode(200)
                .body("output[0].type", equalTo("message"))
                .body("output[0].content[0].text", equalTo("The tool said: Sunny, 21 C"));
        JsonObject continued = lastOf(FakeResponsesUpstreams.CHAT_BODIES);
        List<String> roles = new ArrayList<>();
        continued.getJsonArray("messages").forEach(message -> roles.add(((JsonObject) message).getString("role")));
        assertEquals(List.of("user", "assistant", "tool"), roles, continued.encode());
        JsonObject call = continued.getJsonArray("messages").getJsonObject(1).getJsonArray("tool_calls").getJsonObject(0);
        assertEquals("call_weather_1", call.getString("id"));
        assertEquals(FakeResponsesUpstreams.WEATHER_ARGUMENTS, call.getJsonObject("function").getString("arguments"));
        assertEquals("call_weather_1", continued.getJsonArray("messages").getJsonObject(2).getString("tool_call_id"));
        JsonNode record = UsageTopic.awaitRecord(project, "chatcmpl-" + requestId);
        assertEquals(9, record.path("prompt_tokens").asInt(), record.toString());
        assertEquals(4, record.path("completion_tokens").asInt(), record.toString());
    }

    @Test
    void aStreamedFunctionCallIsWrittenAsArgumentDeltaEvents() throws Exception {
        String body = create(TestIdentities.unique("stream-tools"), "{\"model\":\"chat-tools\",\"stream\":true,"
                + "\"input\":\"What is the weather in Paris?\"," + WEATHER_TOOL + "}").then().statusCode(200)
                .extract().asString();
        List<JsonNode> events = ResponseEvents.parse(body);
        assertEquals(List.of("response.created", "response.in_progress", "response.output_item.added",
                "response.function_call_arguments.delta", "response.function_call_arguments.delta",
                "response.function_call_arguments.done", "response.output_item.done", "response.completed"),
                ResponseEvents.types(events), body);
        assertEquals("function_call", events.get(2).path("item").path("type").asText());
        assertEquals("in_progress", events.get(2).path("item").path("status").asText());
        assertEquals(FakeResponsesUpstreams.WEATHER_ARGUMENTS, events.get(5).path("arguments").asText());
        JsonNode done = events.get(7).path("response");
        assertEquals("get_weather", done.path("output").path(0).path("name").asText());
        assertEquals(FakeResponsesUpstreams.WEATHER_ARGUMENTS, done.path("output").path(0).path("arguments").asText());
        assertEquals(13, done.path("usage").path("total_tokens").asInt());
    }

    @Test
    void theRequestsCodexSendsRoundTripAToolCallThroughAChatOnlyUpstream() throws Exception {
        List<JsonNode> first = ResponseEvents.parse(create(TestIdentities.unique("codex"),
                codexRequest("codex-first-turn.json", "chat-tools")).then().statusCode(200).extract().asString());
        JsonNode completed = first.get(first.size() - 1);
        assertEquals("response.completed", completed.path("type").asText());
        JsonNode call = completed.path("response").path("output").path(0);
        assertEquals("function_call", call.path("type").asText());
        assertEquals("get_weather", call.path("name").asText());
        assertEquals(false, completed.path("response").path("store").asBoolean());
        JsonObject chat = lastOf(FakeResponsesUpstreams.CHAT_BODIES);
        List<String> roles = new ArrayList<>();
        chat.getJsonArray("messages").forEach(message -> roles.add(((JsonObject) message).getString("role")));
        assertEquals(List.of("system", "system", "user", "user"), roles, "instructions, developer, user, user");
        List<String> tools = new ArrayList<>();
        chat.getJsonArray("tools").forEach(tool -> tools.add(((JsonObject) tool).getJsonObject("function").getString("name")));
        assertEquals(List.of("shell", "get_weather"), tools, "web_search has no chat form");
        assertEquals("medium", chat.getString("reasoning_effort"));
        assertEquals(false, chat.getBoolean("parallel_tool_calls"));
        assertTrue(chat.getJsonObject("stream_options").getBoolean("include_usage"));
        caller.request().header("Compat-Project", project).get("/v1/responses/" + completed.path("response").path("id").asText())
                .then().statusCode(404);

        String second = create(TestIdentities.unique("codex"), codexRequest("codex-second-turn.json", "chat-tools"))
                .then().statusCode(200).extract().asString();
        List<JsonNode> events = ResponseEvents.parse(second);
        assertEquals("The tool said: Sunny, 21 C", ResponseEvents.text(events, 0), second);
        JsonNode output = events.get(events.size() - 1).path("response").path("output").path(0);
        assertEquals("The tool said: Sunny, 21 C", output.path("content").path(0).path("text").asText());
        List<String> continuedRoles = new ArrayList<>();
        lastOf(FakeResponsesUpstreams.CHAT_BODIES).getJsonArray("messages")
                .forEach(message -> continuedRoles.add(((JsonObject) message).getString("role")));
        assertEquals(List.of("system", "system", "user", "user", "assistant", "tool"), continuedRoles,
                "the reasoning item has no chat form");
    }

    /**
     * An image and a file in a Responses input reach a chat-only upstream as the chat wire's content parts, a chat
     * completion's parts reach it as they came, and the embedded engine, which reads text only, refuses both by name.
     */
    @Test
    void imagesAndFilesReachAChatUpstreamAsContentPartsAndTheEngineRefusesThem() {
        String image = "data:image/png;base64,iVBORw0KGgo=";
        String pdf = "data:application/pdf;base64,JVBERi0xLjQ=";
        String input = "[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"What is in these?\"},"
                + "{\"type\":\"input_image\",\"image_url\":\"" + image + "\",\"detail\":\"low\"},"
                + "{\"type\":\"input_file\",\"filename\":\"notes.pdf\",\"file_data\":\"" + pdf + "\"}]}]";
        create(TestIdentities.unique("image"), "{\"model\":\"chat-tools\",\"input\":" + input + "}").then().statusCode(200)
                .body("output[0].content[0].text", equalTo("Hello there"));
        JsonArray parts = lastOf(FakeResponsesUpstreams.CHAT_BODIES).getJsonArray("messages").getJsonObject(0)
                .getJsonArray("content");
        assertEquals(new JsonArray()
                .add(new JsonObject().put("type", "text").put("text", "What is in these?"))
                .add(new JsonObject().put("type", "image_url").put("image_url", new JsonObject().put("url", image).put("detail", "low")))
                .add(new JsonObject().put("type", "file").put("file", new JsonObject().put("file_data", pdf).put("filename", "notes.pdf"))),
                parts);
        create(TestIdentities.unique("image-engine"), "{\"model\":\"" + Callers.MODEL + "\",\"input\":" + input + "}")
                .then().statusCode(400)
                .body("error.param", equalTo("input[].content"))
                .body("error.message", containsString("reads text only"));
        create(TestIdentities.unique("image-by-id"), "{\"model\":\"chat-tools\",\"input\":[{\"role\":\"user\",\"content\":"
                + "[{\"type\":\"input_image\",\"file_id\":\"file-1\"}]}]}").then().statusCode(400)
                .body("error.param", equalTo("input[].content[].image_url"));

        String chat = "{\"model\":\"%s\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Describe\"},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + image + "\"}}]}]}";
        caller.request().header("Compat-Project", project).body(chat.formatted("chat-tools")).post("/v1/chat/completions")
                .then().statusCode(200);
        assertEquals(image, lastOf(FakeResponsesUpstreams.CHAT_BODIES).getJsonArray("messages").getJsonObject(0)
                .getJsonArray("content").getJsonObject(1).getJsonObject("image_url").getString("url"));
        caller.request().header("Compat-Project", project).body(chat.formatted(Callers.MODEL)).post("/v1/chat/completions")
                .then().statusCode(400)
                .body("error.param", equalTo("messages[0].content[1]"))
                .body("error.message", equalTo("Model `" + Callers.MODEL + "` reads text only: messages[0].content[1] is not a text part."));
        caller.request().header("Compat-Project", project).body("{\"model\":\"chat-tools\",\"messages\":[{\"role\":\"user\","
                + "\"content\":[{\"type\":\"image_url\",\"image_url\":{}}]}]}").post("/v1/chat/completions")
                .then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "messages", 0, "content", 0, "image_url", "url")));
    }

    @Test
    void theRequestsCodexSendsAreAnsweredByTheEmbeddedEngine() throws Exception {
        for (String turn : List.of("codex-first-turn.json", "codex-second-turn.json")) {
            Response answer = create(TestIdentities.unique("codex-engine"), codexRequest(turn, Callers.MODEL));
            String body = answer.asString();
            assertEquals(200, answer.statusCode(), body);
            List<JsonNode> events = ResponseEvents.parse(body);
            List<String> types = ResponseEvents.types(events);
            assertEquals(List.of("response.created", "response.in_progress", "response.output_item.added",
                    "response.content_part.added"), types.subList(0, 4), body);
            String last = types.get(types.size() - 1);
            assertTrue(last.equals("response.completed") || last.equals("response.incomplete"), body);
            JsonNode response = events.get(events.size() - 1).path("response");
            assertEquals(ResponseEvents.text(events, 0),
                    response.path("output").path(0).path("content").path(0).path("text").asText());
            assertTrue(response.path("usage").path("input_tokens").asInt() > 0, body);
        }
    }

    @Test
    void anUpstreamSpeakingTheResponsesApiGetsTheRequestAsItCame() throws Exception {
        String requestId = TestIdentities.unique("native");
        create(requestId, "{\"model\":\"native-responses\",\"input\":\"hi\",\"store\":false,\"include\":"
                + "[\"reasoning.encrypted_content\"],\"previous_response_id\":\"resp_upstream_0\"}").then().statusCode(200)
                .body("id", equalTo("resp_native_1"))
                .body("model", equalTo("native-responses"))
                .body("output[0].content[0].text", equalTo("Natively answered"));
        JsonObject relayed = lastOf(FakeResponsesUpstreams.RESPONSES_BODIES);
        assertEquals("native-model", relayed.getString("model"));
        assertEquals("hi", relayed.getString("input"));
        assertEquals("resp_upstream_0", relayed.getString("previous_response_id"));
        assertEquals("reasoning.encrypted_content", relayed.getJsonArray("include").getString(0));
        JsonNode record = UsageTopic.awaitRecord(project, "resp-" + requestId);
        assertEquals(11, record.path("prompt_tokens").asInt(), record.toString());
        assertEquals(3, record.path("completion_tokens").asInt(), record.toString());

        String streamId = TestIdentities.unique("native-stream");
        String body = create(streamId, "{\"model\":\"native-responses\",\"input\":\"hi\",\"stream\":true}").then()
                .statusCode(200).extract().asString();
        List<JsonNode> events = ResponseEvents.parse(body);
        assertEquals(List.of("response.created", "response.output_item.added", "response.content_part.added",
                "response.output_text.delta", "response.output_text.done", "response.output_item.done",
                "response.completed"), ResponseEvents.types(events), body);
        assertEquals("native-responses", events.get(6).path("response").path("model").asText(), body);
        assertTrue(body.contains("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
                + "\"sequence_number\":3,\"item_id\":\"msg_native\""), "a delta passes as the upstream wrote it: " + body);
        assertFalse(body.contains("native-model"), "every Response renamed to our model: " + body);
        JsonNode streamed = UsageTopic.awaitRecord(project, "resp-" + streamId);
        assertEquals(11, streamed.path("prompt_tokens").asInt(), streamed.toString());
        assertEquals("success", streamed.path("status").asText(), streamed.toString());
    }

    @Test
    void toolChoiceRequiredAndANamedFunctionReachAChatOnlyUpstreamInItsTerms() {
        create(TestIdentities.unique("required"), "{\"model\":\"chat-tools\",\"input\":\"Weather?\"," + WEATHER_TOOL
                + ",\"tool_choice\":\"required\"}").then().statusCode(200)
                .body("output[0].type", equalTo("function_call"))
                .body("tool_choice", equalTo("required"));
        assertEquals("required", lastOf(FakeResponsesUpstreams.CHAT_BODIES).getString("tool_choice"));

        create(TestIdentities.unique("named"), "{\"model\":\"chat-tools\",\"input\":\"Weather?\"," + WEATHER_TOOL
                + ",\"tool_choice\":{\"type\":\"function\",\"name\":\"get_weather\"},\"stream\":true}").then()
                .statusCode(200);
        assertEquals(new JsonObject().put("type", "function").put("function", new JsonObject().put("name", "get_weather")),
                lastOf(FakeResponsesUpstreams.CHAT_BODIES).getJsonObject("tool_choice"));
    }

    @Test
    void toolChoicesTheChatWireCannotCarryOrTheEngineCannotHonourAreA400() {
        create(TestIdentities.unique("builtin"), "{\"model\":\"chat-tools\",\"input\":\"hi\","
                + "\"tool_choice\":{\"type\":\"web_search_preview\"}}").then().statusCode(400)
                .body("error.param", equalTo("tool_choice")).body("error.type", equalTo("invalid_request_error"));
        create(TestIdentities.unique("unnamed"), "{\"model\":\"chat-tools\",\"input\":\"hi\","
                + "\"tool_choice\":{\"type\":\"function\"}}").then().statusCode(400)
                .body("error.param", equalTo("tool_choice.name"));
        create(TestIdentities.unique("engine-required"), "{\"model\":\"" + Callers.MODEL + "\",\"input\":\"hi\","
                + WEATHER_TOOL + ",\"tool_choice\":\"required\"}").then().statusCode(400)
                .body("error.param", equalTo("tool_choice"))
                .body("error.message", org.hamcrest.Matchers.containsString("calls no tools"));
    }

    private static String codexRequest(String file, String model) throws IOException {
        try (InputStream in = ResponsesUpstreamTest.class.getResourceAsStream("/responses/" + file)) {
            ObjectNode request = (ObjectNode) JSON.readTree(in);
            return JSON.writeValueAsString(request.put("model", model));
        }
    }
}
