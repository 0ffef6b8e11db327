package org.llmplatform.tracing.trajectories;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** {@code POST /calls/trajectories} over calls written as the SDK writes them and feedback given as the UI gives it. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class TrajectoriesApiTest {

    private static final String OP = "weave:///e/p/op/openai.chat.completions.create:abc";
    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("trajectories");
    }

    @Test
    void chatCallsWithReactionsBecomeTrajectoryGroupsByPromptEndingInTheAnswerAsAChoice() {
        chatCall("a1", "Tell a story", "Once upon a time", List.of());
        chatCall("a2", "Tell a story", "The end", List.of());
        chatCall("b1", "Name a dog", "Rex", List.of(Map.of("type", "function", "function", Map.of("name", "bark"))));
        chatCall("c1", "Count", "1 2 3", List.of());
        writeCall("not-chat", Map.of("question", "2+2"), Map.of("answer", 4));
        react("a1", "👍");
        react("a2", "👎🏽");
        react("b1", "🎱");
        react("b1", "👍");

        client.post("/calls/trajectories", Map.of("project_id", client.project,
                        "call_ids", List.of("a1", "a2", "b1", "c1", "not-chat", "missing"), "reward", "reaction"))
                .statusCode(200)
                .body("trajectory_groups", hasSize(2))
                .body("trajectory_groups[0].trajectories.reward", equalTo(List.of(1.0f, 0.0f)))
                .body("trajectory_groups[0].trajectories[0].messages_and_choices", equalTo(List.of(
                        Map.of("role", "system", "content", "You tell stories."),
                        Map.of("role", "user", "content", "Tell a story"),
                        Map.of("index", 0, "finish_reason", "stop",
                                "message", Map.of("role", "assistant", "content", "Once upon a time")))))
                .body("trajectory_groups[0].trajectories[0].metadata.weave_call_id", equalTo("a1"))
                .body("trajectory_groups[1].trajectories.reward", equalTo(List.of(1.0f)))
                .body("trajectory_groups[1].trajectories[0].tools[0].function.name", equalTo("bark"))
                .body("lines", nullValue())
                .body("skipped.call_id", equalTo(List.of("c1", "not-chat", "missing")))
                .body("skipped.reason", equalTo(List.of("it has no 👍 or 👎 reaction",
                        "it is not a chat completion (inputs.messages and output.choices[0].message)",
                        "no such call in " + client.project)));
    }

    @Test
    void aScorersOrAnnotatorsNumberIsTheRewardAndSelectionGroupsPutEveryCallInOne() {
        chatCall("a1", "Tell a story", "Once", List.of());
        chatCall("b1", "Name a dog", "Rex", List.of());
        chatCall("c1", "Count", "1 2", List.of());
        feedback("a1", "quality", Map.of("value", 0.75));
        feedback("b1", "quality", Map.of("output", Map.of("score", 2)));
        feedback("c1", "quality", Map.of("output", true));

        client.post("/calls/trajectories", Map.of("project_id", client.project, "call_ids", List.of("a1", "b1", "c1"),
                        "reward", "feedback:quality", "group_by", "selection"))
                .statusCode(200)
                .body("trajectory_groups", hasSize(1))
                .body("trajectory_groups[0].trajectories.reward", equalTo(List.of(0.75f, 2.0f, 1.0f)))
                .body("skipped", hasSize(0));
    }

    @Test
    void sftLinesEndInTheAnswerAsAMessageAndMinRewardKeepsTheGoodOnes() {
        chatCall("a1", "Tell a story", "Once upon a time", List.of());
        chatCall("a2", "Tell a story", "Bad story", List.of());
        chatCall("a3", "Tell a story", "Unrated story", List.of());
        react("a1", "👍");
        react("a2", "👎");

        client.post("/calls/trajectories", Map.of("project_id", client.project, "call_ids", List.of("a1", "a2", "a3"), "format", "sft"))
                .statusCode(200)
                .body("lines", hasSize(3))
                .body("trajectory_groups", nullValue())
                .body("lines[0].messages[2]", equalTo(Map.of("role", "assistant", "content", "Once upon a time")));
        client.post("/calls/trajectories", Map.of("project_id", client.project, "call_ids", List.of("a1", "a2", "a3"), "format", "sft",
                        "reward", "reaction", "min_reward", 1))
                .statusCode(200)
                .body("lines", hasSize(1))
                .body("lines[0].messages[2].content", equalTo("Once upon a time"))
                .body("skipped.call_id", equalTo(List.of("a2", "a3")))
                .body("skipped.reason", equalTo(List.of("its reward 0.0 is below min_reward 1.0", "it has no 👍 or 👎 reaction")));
    }

    @Test
    void badRequestsNameTheirField() {
        chatCall("a1", "Tell a story", "Once", List.of());
        Map<String, Object> valid = Map.of("project_id", client.project, "call_ids", List.of("a1"), "reward", "reaction");
        expectInvalid(with(valid, "call_ids", List.of()), "call_ids");
        expectInvalid(with(valid, "format", "dpo"), "format");
        expectInvalid(with(valid, "reward", "stars"), "reward");
        expectInvalid(with(valid, "reward", null), "reward");
        expectInvalid(with(valid, "group_by", "day"), "group_by");
        client.post("/calls/trajectories", with(valid, "colour", "red")).statusCode(422);
        client.post("/calls/trajectories", with(valid, "project_id", "someone-else/p")).statusCode(403);
    }

    private void expectInvalid(Map<String, Object> body, String field) {
        client.post("/calls/trajectories", body).statusCode(422).body("detail[0].loc", equalTo(List.of("body", field)));
    }

    private static Map<String, Object> with(Map<String, Object> body, String key, Object value) {
        Map<String, Object> changed = new HashMap<>(body);
        if (value == null) {
            changed.remove(key);
        } else {
            changed.put(key, value);
        }
        return changed;
    }

    /** A call as Weave's OpenAI integration traces {@code client.chat.completions.create}. */
    private void chatCall(String id, String prompt, String answer, List<Map<String, Object>> tools) {
        Map<String, Object> inputs = new HashMap<>();
        inputs.put("model", "gpt-4o-mini");
        inputs.put("messages", List.of(Map.of("role", "system", "content", "You tell stories."), Map.of("role", "user", "content", prompt)));
        if (!tools.isEmpty()) {
            inputs.put("tools", tools);
        }
        Map<String, Object> output = Map.of("id", "chatcmpl-" + id, "object", "chat.completion", "model", "gpt-4o-mini",
                "choices", List.of(Map.of("index", 0, "finish_reason", "stop",
                        "message", Map.of("role", "assistant", "content", answer))),
                "usage", Map.of("prompt_tokens", 5, "completion_tokens", 3, "total_tokens", 8));
        writeCall(id, inputs, output);
    }

    private void writeCall(String id, Map<String, Object> inputs, Map<String, Object> output) {
        Map<String, Object> start = client.start(id, OP.replace("e/p", client.project), "2026-11-28T07:00:00Z");
        start.put("inputs", inputs);
        Map<String, Object> end = client.end(id, "2026-11-28T07:00:01Z");
        end.put("output", output);
        client.write(new ArrayList<>(List.of(start)), new ArrayList<>(List.of(end)));
    }

    private void react(String callId, String emoji) {
        feedback(callId, "wandb.reaction.1", Map.of("emoji", emoji));
    }

    private void feedback(String callId, String type, Map<String, Object> payload) {
        client.post("/feedback/create", Map.of("project_id", client.project, "weave_ref", "weave:///" + client.project + "/call/" + callId,
                "feedback_type", type, "payload", payload)).statusCode(200);
    }
}
