package org.llmplatform.inference.engine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.llmplatform.inference.chat.Logprobs;
import org.llmplatform.llama.GeneratedToken;
import org.llmplatform.llama.TokenLogprob;
import org.llmplatform.llama.Tokenizer;

/** How tokens appear in logprobs: their text (or {@code token_id:N}) and UTF-8 bytes. */
public final class TokenRendering {

    private final Tokenizer tokenizer;
    private final boolean asIds;

    public TokenRendering(CompletionPlan plan) {
        this.tokenizer = plan.model().engine().tokenizer();
        this.asIds = plan.tokensAsIds();
    }

    Logprobs.Entry entry(GeneratedToken token) {
        List<Logprobs.Alternative> alternatives = new ArrayList<>();
        for (TokenLogprob alternative : token.topLogprobs()) {
            alternatives.add(new Logprobs.Alternative(text(alternative.token()), alternative.logprob(),
                    bytes(alternative.token())));
        }
        return new Logprobs.Entry(text(token.token()), token.logprob(), bytes(token.token()), alternatives);
    }

    /** The token's text in logprobs: its UTF-8 piece, or {@code token_id:N} when the request asked for ids. */
    public String text(int token) {
        return asIds ? "token_id:" + token : new String(tokenizer.decode(-1, token), StandardCharsets.UTF_8);
    }

    private List<Integer> bytes(int token) {
        List<Integer> out = new ArrayList<>();
        for (byte b : tokenizer.decode(-1, token)) {
            out.add(b & 0xff);
        }
        return out;
    }
}
