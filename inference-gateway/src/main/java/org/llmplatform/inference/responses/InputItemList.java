package org.llmplatform.inference.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code GET /v1/responses/{id}/input_items}: the items a stored response was generated from (those of the responses
 * it continued, then its own input), as OpenAI lists them: {@code {"object":"list","data":[…],"first_id",
 * "last_id","has_more"}}, newest first unless {@code order} is {@code asc}, {@code limit} at a time after the item
 * {@code after}. Every item has an id: its own, or one made of the response's id and its place, the same on each read.
 */
final class InputItemList {

    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private InputItemList() {
    }

    /** {@code after}: an item id, or null for the first page; an id not in the list gives an empty page. */
    static ObjectNode page(String responseId, JsonNode conversation, String after, int limit, boolean ascending) {
        List<ObjectNode> items = new ArrayList<>(conversation.size());
        String ownIds = responseId.startsWith("resp_") ? responseId.substring("resp_".length()) : responseId;
        for (int i = 0; i < conversation.size(); i++) {
            items.add(listed(conversation.get(i), ownIds + "_" + i));
        }
        if (!ascending) {
            Collections.reverse(items);
        }
        int from = 0;
        if (after != null) {
            from = items.size();
            for (int i = 0; i < items.size(); i++) {
                if (after.equals(items.get(i).path("id").asText())) {
                    from = i + 1;
                    break;
                }
            }
        }
        int to = Math.min(items.size(), from + limit);
        ObjectNode list = NODES.objectNode().put("object", "list");
        ArrayNode data = list.putArray("data");
        items.subList(from, to).forEach(data::add);
        if (data.isEmpty()) {
            list.putNull("first_id");
            list.putNull("last_id");
        } else {
            list.set("first_id", data.get(0).get("id"));
            list.set("last_id", data.get(data.size() - 1).get("id"));
        }
        return list.put("has_more", to < items.size());
    }

    /** An item as listed: with an id, and a message's text as content parts. */
    private static ObjectNode listed(JsonNode stored, String ownId) {
        ObjectNode item = NODES.objectNode();
        String type = stored.path("type").asText("message");
        item.put("id", stored.path("id").isTextual() ? stored.get("id").textValue()
                : ("message".equals(type) ? "msg_" : "item_") + ownId);
        item.put("type", type);
        stored.fields().forEachRemaining(field -> {
            if (!item.has(field.getKey())) {
                item.set(field.getKey(), field.getValue());
            }
        });
        if ("message".equals(type) && item.path("content").isTextual()) {
            String part = "assistant".equals(item.path("role").asText()) ? "output_text" : "input_text";
            String text = item.path("content").textValue();
            item.putArray("content").addObject().put("type", part).put("text", text);
        }
        return item;
    }
}
