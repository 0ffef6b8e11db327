package org.llmplatform.llama;

/** Why a sequence ended, with OpenAI's wire names. */
public enum FinishReason {
    STOP("stop"),
    LENGTH("length");

    private final String wireName;

    FinishReason(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
