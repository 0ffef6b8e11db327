package org.llmplatform.llama;

import java.util.List;

/**
 * One sampled token: its id, the text it releases now ({@code delta}; may be empty while a stop
 * string or a multi-byte character is pending, and may carry text held back earlier), its logprob and
 * the top alternatives when logprobs were asked for.
 */
public record GeneratedToken(int token, String delta, float logprob, List<TokenLogprob> topLogprobs) {
}
