package org.llmplatform.training.service.trajectory;

import java.util.List;

/** One line of a supervised fine-tuning file: the conversation ({@code messages}, as ART's {@code Trajectory.messages()} dumps it). */
public record SftExample(List<ConversationItem> messages) {
}
