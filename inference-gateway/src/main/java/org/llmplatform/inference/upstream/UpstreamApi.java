package org.llmplatform.inference.upstream;

import org.llmplatform.model.events.UsageRecord;

/**
 * The OpenAI-compatible APIs relayed to upstreams: the path under the upstream's base URL, the prefix of the id a
 * usage record gets, and the {@code object} of the answer a record carries for a stream.
 */
public enum UpstreamApi {
    CHAT("/chat/completions", UsageRecord.Api.CHAT_COMPLETIONS, "chat.completion"),
    COMPLETIONS("/completions", UsageRecord.Api.COMPLETIONS, "text_completion"),
    EMBEDDINGS("/embeddings", UsageRecord.Api.EMBEDDINGS, "list"),
    /** Relayed only to an upstream that speaks the Responses API itself ({@code wire=responses}). */
    RESPONSES("/responses", UsageRecord.Api.RESPONSES, "response");

    private final String path;
    private final String idPrefix;
    private final String object;

    UpstreamApi(String path, UsageRecord.Api recorded, String object) {
        this.path = path;
        this.idPrefix = recorded.idPrefix();
        this.object = object;
    }

    public String path() {
        return path;
    }

    public String idPrefix() {
        return idPrefix;
    }

    public String object() {
        return object;
    }
}
