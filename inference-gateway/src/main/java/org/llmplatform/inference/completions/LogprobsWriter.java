package org.llmplatform.inference.completions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.inference.engine.TokenRendering;
import org.llmplatform.llama.GeneratedToken;
import org.llmplatform.llama.TokenLogprob;

/**
 * Builds a choice's {@link TextCompletion.CompletionLogprobs} token by token, as vLLM's
 * {@code _create_completion_logprobs}: a token's alternatives are the token itself then the top ones (an
 * alternative with the same text as an earlier one replaces its value), and each offset is the previous one plus
 * the previous token's length in characters (code points).
 */
final class LogprobsWriter {

    private final TokenRendering rendering;
    private final List<Integer> offsets = new ArrayList<>();
    private final List<Float> logprobs = new ArrayList<>();
    private final List<String> tokens = new ArrayList<>();
    private final List<Map<String, Float>> top = new ArrayList<>();
    private int nextOffset;

    LogprobsWriter(TokenRendering rendering, int initialOffset) {
        this.rendering = rendering;
        this.nextOffset = initialOffset;
    }

    /** A token nothing predicted: the first of a prompt. */
    void unscored(int token) {
        add(rendering.text(token), null, null);
    }

    void scored(GeneratedToken token) {
        String text = rendering.text(token.token());
        Map<String, Float> alternatives = new LinkedHashMap<>();
        alternatives.put(text, token.logprob());
        for (TokenLogprob alternative : token.topLogprobs()) {
            alternatives.put(rendering.text(alternative.token()), alternative.logprob());
        }
        add(text, token.logprob(), alternatives);
    }

    private void add(String text, Float logprob, Map<String, Float> alternatives) {
        offsets.add(nextOffset);
        logprobs.add(logprob);
        tokens.add(text);
        top.add(alternatives);
        nextOffset += text.codePointCount(0, text.length());
    }

    TextCompletion.CompletionLogprobs written() {
        return new TextCompletion.CompletionLogprobs(List.copyOf(offsets), new ArrayList<>(logprobs),
                List.copyOf(tokens), new ArrayList<>(top));
    }
}
