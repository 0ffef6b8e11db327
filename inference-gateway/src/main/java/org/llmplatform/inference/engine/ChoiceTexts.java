package org.llmplatform.inference.engine;

import java.util.ArrayList;
import java.util.List;
import org.llmplatform.inference.chat.ChatCompletion;

/**
 * The text and finish reason of each choice generated so far, streamed or not, for the answer a usage record
 * carries: a completion whose client traces nothing is recorded from that record alone.
 */
final class ChoiceTexts {

    private final StringBuilder[] texts;
    private final String[] finishReasons;

    ChoiceTexts(int choices, String echo) {
        texts = new StringBuilder[choices];
        finishReasons = new String[choices];
        for (int i = 0; i < choices; i++) {
            texts[i] = new StringBuilder(echo == null ? "" : echo);
        }
    }

    synchronized void add(ChoiceStep step) {
        texts[step.index()].append(step.token().delta());
        if (step.last()) {
            finishReasons[step.index()] = step.finishReason().wireName();
        }
    }

    synchronized List<ChatCompletion.Choice> choices(String role) {
        List<ChatCompletion.Choice> choices = new ArrayList<>(texts.length);
        for (int i = 0; i < texts.length; i++) {
            choices.add(new ChatCompletion.Choice(i, ChatCompletion.Message.of(role, texts[i].toString()), null,
                    finishReasons[i], null));
        }
        return choices;
    }
}
