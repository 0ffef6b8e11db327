package org.llmplatform.llama;

/** One chat turn as the template sees it. */
public record ChatMessage(String role, String content) {
}
