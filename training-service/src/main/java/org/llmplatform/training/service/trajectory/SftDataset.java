package org.llmplatform.training.service.trajectory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a supervised fine-tuning file as ART writes it (one JSON object a line: {@code messages}, a list of chat
 * messages, and optional {@code tools}; blank lines skipped) and refuses, naming the line, anything a trainer could
 * not learn from: a line that is not a JSON object, {@code messages} missing or not a list, a message without a
 * known role, a conversation with no assistant message.
 */
public final class SftDataset {

    private SftDataset() {
    }

    /** A training file that cannot be trained on; {@link #getMessage()} names the line and the field. */
    public static final class InvalidTrainingFile extends IllegalArgumentException {
        public InvalidTrainingFile(String message) {
            super(message);
        }
    }

    public static List<SftExample> parse(byte[] jsonl, ObjectMapper json) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(jsonl)).toString();
        } catch (CharacterCodingException notUtf8) {
            throw new InvalidTrainingFile("the training file is not UTF-8 text");
        }
        List<SftExample> examples = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].isBlank()) {
                examples.add(example(lines[i], i + 1, json));
            }
        }
        if (examples.isEmpty()) {
            throw new InvalidTrainingFile("the training file has no examples (one JSON object a line, each with messages)");
        }
        return examples;
    }

    private static SftExample example(String line, int number, ObjectMapper json) {
        JsonNode node;
        try {
            node = json.readTree(line);
        } catch (JsonProcessingException e) {
            throw new InvalidTrainingFile("line " + number + ": not valid JSON (" + e.getOriginalMessage() + ")");
        }
        if (node == null || !node.isObject()) {
            throw new InvalidTrainingFile("line " + number + ": not a JSON object");
        }
        JsonNode messages = node.get("messages");
        if (messages == null || messages.isNull()) {
            throw new InvalidTrainingFile("line " + number + ": messages is required (a list of chat messages)");
        }
        if (!messages.isArray()) {
            throw new InvalidTrainingFile("line " + number + ": messages must be a list of chat messages");
        }
        List<ConversationItem> items = new ArrayList<>();
        boolean assistant = false;
        for (int m = 0; m < messages.size(); m++) {
            JsonNode message = messages.get(m);
            JsonNode role = message.get("role");
            if (!message.isObject() || role == null || !role.isTextual() || !ChatMessage.ROLES.contains(role.asText())) {
                throw new InvalidTrainingFile("line " + number + ": messages[" + m + "].role must be one of " + String.join(", ",
                        ChatMessage.ROLES.stream().sorted().toList()));
            }
            assistant |= "assistant".equals(role.asText());
            try {
                items.add(json.treeToValue(message, ChatMessage.class));
            } catch (JsonProcessingException e) {
                throw new InvalidTrainingFile("line " + number + ": messages[" + m + "] is not a chat message (" + e.getOriginalMessage() + ")");
            }
        }
        if (!assistant) {
            throw new InvalidTrainingFile("line " + number + ": messages has no assistant message to train on");
        }
        return new SftExample(List.copyOf(items));
    }
}
