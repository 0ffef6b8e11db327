package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import net.fellbaum.jemoji.Emoji;
import net.fellbaum.jemoji.EmojiManager;
import org.llmplatform.support.error.ApiException;

/**
 * The payload of a {@code wandb.reaction.1} feedback: exactly one emoji, completed with its CLDR
 * alias ({@code 🎱} ⇒ {@code :pool_8_ball:}), the emoji without skin tones and that one's alias,
 * as Python's {@code emoji.demojize} names them.
 */
final class Reactions {

    static ObjectNode process(ObjectNode payload) {
        String emoji = payload.path("emoji").isTextual() ? payload.get("emoji").textValue() : null;
        Emoji recognised = emoji == null ? null : single(emoji).orElse(null);
        if (recognised == null) {
            throw ApiException.badRequest("Value of emoji key in payload must be exactly one emoji");
        }
        String detoned = removeSkinTones(emoji);
        ObjectNode processed = JsonNodeFactory.instance.objectNode();
        processed.put("emoji", emoji);
        processed.put("alias", alias(recognised));
        processed.put("detoned", detoned);
        processed.put("detoned_alias", single(detoned).map(Reactions::alias).orElse(alias(recognised)));
        return processed;
    }

    private static Optional<Emoji> single(String text) {
        return EmojiManager.isEmoji(text) ? EmojiManager.getEmoji(text) : Optional.empty();
    }

    /** {@code thumbs up} ⇒ {@code :thumbs_up:}; flags by their region ({@code :United_States:}). */
    static String alias(Emoji emoji) {
        String name = emoji.getDescription();
        if (name.startsWith("flag: ")) {
            name = name.substring("flag: ".length());
        }
        String cleaned = name.replace(":", "").replace(",", "").replace("“", "").replace("”", "")
                .replace("’", "").replace("!", "").replace("(", "").replace(")", "").replace(".", "")
                .trim().replaceAll("\\s+", "_");
        return ":" + cleaned + ":";
    }

    private static String removeSkinTones(String emoji) {
        StringBuilder detoned = new StringBuilder();
        emoji.codePoints().filter(point -> point < 0x1F3FB || point > 0x1F3FF).forEach(detoned::appendCodePoint);
        return detoned.toString();
    }

    private Reactions() {
    }
}
