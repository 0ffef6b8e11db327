package org.llmplatform.training.service.trajectory;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

/**
 * One entry of {@code messages_and_choices}: an OpenAI message param (has {@code role}) or an OpenAI
 * {@code Choice} (has {@code message} and no top-level {@code role}). Only Choices are trainable.
 */
@JsonDeserialize(using = ConversationItemDeserializer.class)
public sealed interface ConversationItem permits ChatMessage, Choice {
}
