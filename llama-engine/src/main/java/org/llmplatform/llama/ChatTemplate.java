package org.llmplatform.llama;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The prompt for a story model that knows nothing of chat: the messages' texts in order, joined by
 * newlines, roles dropped. A generation prompt adds nothing, so the model simply continues the text;
 * a single user message "Once upon a time" is the plain prompt "Once upon a time".
 */
public final class ChatTemplate {

    private ChatTemplate() {
    }

    public static String render(List<ChatMessage> messages) {
        return messages.stream().map(ChatMessage::content).collect(Collectors.joining("\n"));
    }
}
