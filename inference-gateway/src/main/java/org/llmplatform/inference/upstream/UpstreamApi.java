package org.llmplatform.inference.upstream;

/**
 * The OpenAI-compatible APIs relayed to upstreams: the path under the upstream's base URL, the prefix of the id a
 * usage record gets, and the {@code object} of the answer a record carries for a stream.
 */
public enum UpstreamApi {
    CHAT("/chat/completions", "chatcmpl-", "chat.completion"),
    COMPLETIONS("/completions", "cmpl-", "text_completion"),
    EMBEDDINGS("/embeddings", "embd-", "list"),
    /** Relayed only to an upstream that speaks the Responses API itself ({@code wire=responses}). */
    RESPONSES("/responses", "resp-", "response");

    private final String path;
    private final String idPrefix;
    private final String object;

    UpstreamApi(String path, String idPrefix, String object) {
        this.path = path;
        this.idPrefix = idPrefix;
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
