package org.llmplatform.tracing.trajectories;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.calls.CallQueryService;
import org.llmplatform.tracing.calls.CallSchema;
import org.llmplatform.tracing.calls.CallsQuery;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.trajectories.RewardSource.Reward;
import org.llmplatform.tracing.trajectories.TrajectoryEnvelopes.Skipped;
import org.llmplatform.tracing.trajectories.TrajectoryEnvelopes.TrajectoriesReq;
import org.llmplatform.tracing.trajectories.TrajectoryEnvelopes.TrajectoriesRes;

/**
 * Turns traced chat completions into training data. A call qualifies when its inputs hold chat {@code messages} and
 * its output a chat completion's {@code choices[0].message}: an SDK-traced {@code openai.chat.completions.create},
 * or a completion the gateway recorded. The prompt is the input messages, the answer the first choice.
 * <ul>
 * <li>{@code rl}: ART trajectories ({@code messages_and_choices} ending in the answer as a Choice, which is what ART
 * trains on), each with its reward, grouped by prompt (GRPO compares answers to one prompt) or all in one group;
 * <li>{@code sft}: the lines of an SFT training file ({@code {"messages": [..., answer]}}), optionally only the
 * calls whose reward reaches {@code min_reward}.
 * </ul>
 * A selected call that does not qualify is listed in {@code skipped} with the reason, never silently dropped.
 */
@ApplicationScoped
public class TrajectoryService {

    private final CallQueryService calls;
    private final ObjectMapper json;

    public TrajectoryService(CallQueryService calls, ObjectMapper json) {
        this.calls = calls;
        this.json = json;
    }

    public Uni<TrajectoriesRes> fromCalls(TrajectoriesReq request) {
        List<String> callIds = request.callIds() == null ? List.of() : List.copyOf(new LinkedHashSet<>(request.callIds()));
        if (callIds.isEmpty()) {
            throw ApiException.invalidField("value_error", List.of("body", "call_ids"), "call_ids names at least one call",
                    request.callIds());
        }
        CallFilter.checkLength("call_ids", callIds);
        boolean rl = format(request.format());
        boolean groupByPrompt = groupByPrompt(request.groupBy());
        Optional<RewardSource> reward = RewardSource.parse(request.reward());
        if (rl && reward.isEmpty()) {
            throw ApiException.invalidField("missing", List.of("body", "reward"),
                    "An rl trajectory needs a reward: 'reaction' or 'feedback:<feedback_type>'", null);
        }
        if (request.minReward() != null && reward.isEmpty()) {
            throw ApiException.invalidField("missing", List.of("body", "reward"), "min_reward needs a reward to compare", null);
        }
        CallsQuery query = CallsQuery.in(request.projectId())
                .filter(new CallFilter(null, null, null, null, null, callIds, null, null, null, null, null))
                .page(Page.of((long) callIds.size(), null)).feedback(reward.isPresent()).build();
        return calls.stream(query).collect().asList().map(found -> {
            Map<String, CallSchema> byId = found.stream().collect(Collectors.toMap(CallSchema::id, Function.identity()));
            List<Skipped> skipped = new ArrayList<>();
            Map<String, ArrayNode> groups = new LinkedHashMap<>();
            List<JsonNode> lines = new ArrayList<>();
            for (String id : callIds) {
                CallSchema call = byId.get(id);
                if (call == null) {
                    skipped.add(new Skipped(id, "no such call in " + request.projectId()));
                    continue;
                }
                Optional<Chat> chat = chat(call);
                if (chat.isEmpty()) {
                    skipped.add(new Skipped(id, "it is not a chat completion (inputs.messages and output.choices[0].message)"));
                    continue;
                }
                Reward value = reward.map(source -> source.of(feedback(call))).orElse(null);
                if (value != null && value.value() == null && (rl || request.minReward() != null)) {
                    skipped.add(new Skipped(id, value.missing()));
                    continue;
                }
                if (rl) {
                    String group = groupByPrompt ? chat.get().messages().toString() : "";
                    groups.computeIfAbsent(group, key -> json.createArrayNode()).add(trajectory(id, chat.get(), value.value()));
                } else if (request.minReward() == null || value.value() >= request.minReward()) {
                    lines.add(sftLine(chat.get()));
                } else {
                    skipped.add(new Skipped(id, "its reward " + value.value() + " is below min_reward " + request.minReward()));
                }
            }
            List<JsonNode> trajectoryGroups = rl
                    ? groups.values().stream().map(trajectories -> (JsonNode) json.createObjectNode().set("trajectories", trajectories)).toList()
                    : null;
            return new TrajectoriesRes(trajectoryGroups, rl ? null : lines, skipped);
        });
    }

    private record Chat(ArrayNode messages, ObjectNode answer, ObjectNode choice, JsonNode tools) {
    }

    private Optional<Chat> chat(CallSchema call) {
        JsonNode inputs = parse(call.inputs());
        JsonNode output = parse(call.output());
        JsonNode messages = inputs.path("messages");
        JsonNode choice = output.path("choices").path(0);
        if (!messages.isArray() || messages.isEmpty() || !choice.path("message").isObject()) {
            return Optional.empty();
        }
        ObjectNode answer = ((ObjectNode) choice.get("message")).deepCopy();
        answer.put("role", "assistant");
        ObjectNode trainable = json.createObjectNode();
        trainable.put("index", 0);
        trainable.put("finish_reason", choice.path("finish_reason").asText("stop"));
        trainable.set("message", answer);
        if (choice.path("logprobs").isObject()) {
            trainable.set("logprobs", choice.get("logprobs"));
        }
        JsonNode tools = inputs.path("tools").isArray() ? inputs.get("tools") : null;
        return Optional.of(new Chat((ArrayNode) messages, answer, trainable, tools));
    }

    private ObjectNode trajectory(String callId, Chat chat, double reward) {
        ObjectNode trajectory = json.createObjectNode();
        ArrayNode messagesAndChoices = chat.messages().deepCopy();
        messagesAndChoices.add(chat.choice());
        trajectory.set("messages_and_choices", messagesAndChoices);
        if (chat.tools() != null) {
            trajectory.set("tools", chat.tools());
        }
        trajectory.put("reward", reward);
        trajectory.putObject("metadata").put("weave_call_id", callId);
        return trajectory;
    }

    private ObjectNode sftLine(Chat chat) {
        ObjectNode line = json.createObjectNode();
        ArrayNode messages = chat.messages().deepCopy();
        messages.add(chat.answer());
        line.set("messages", messages);
        if (chat.tools() != null) {
            line.set("tools", chat.tools());
        }
        return line;
    }

    private JsonNode feedback(CallSchema call) {
        JsonNode feedback = call.summary() == null ? null : call.summary().path("weave").path("feedback");
        return feedback != null && feedback.isArray() ? feedback : json.createArrayNode();
    }

    private JsonNode parse(String raw) {
        if (raw == null) {
            return json.missingNode();
        }
        try {
            return json.readTree(raw);
        } catch (JsonProcessingException unparsable) {
            return json.missingNode();
        }
    }

    private static boolean format(String format) {
        if (format == null || format.equals("rl")) {
            return true;
        }
        if (format.equals("sft")) {
            return false;
        }
        throw ApiException.invalidField("literal_error", List.of("body", "format"), "format is 'rl' or 'sft', got '" + format + "'", format);
    }

    private static boolean groupByPrompt(String groupBy) {
        if (groupBy == null || groupBy.equals("prompt")) {
            return true;
        }
        if (groupBy.equals("selection")) {
            return false;
        }
        throw ApiException.invalidField("literal_error", List.of("body", "group_by"),
                "group_by is 'prompt' or 'selection', got '" + groupBy + "'", groupBy);
    }
}
