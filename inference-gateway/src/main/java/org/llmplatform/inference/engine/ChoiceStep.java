package org.llmplatform.inference.engine;

import org.llmplatform.llama.FinishReason;
import org.llmplatform.llama.GeneratedToken;

/** One token of one choice; the last step of a choice carries its finish reason. */
public record ChoiceStep(int index, GeneratedToken token, FinishReason finishReason, Object stopReason,
        int completionTokens) {

    public boolean last() {
        return finishReason != null;
    }
}
