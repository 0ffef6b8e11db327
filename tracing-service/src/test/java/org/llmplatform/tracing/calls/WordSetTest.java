package org.llmplatform.tracing.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.llmplatform.tracing.query.JsonText;

/** The word set against the rule written plainly: escape the text, split it at the separators, keep 3 code points or more. */
class WordSetTest {

    @Test
    void keepsEachWordOnceInTheOrderFirstMetJoinedBySpaces() {
        WordSet words = new WordSet();
        words.addText("the dragon, the Dragon and the dragon's hoard");
        words.addText("hoard of the dragon");
        assertEquals("the dragon Dragon and hoard", words.joined());
        assertEquals(List.of("the", "dragon", "Dragon", "and", "hoard"), List.copyOf(words.toSet()));
    }

    @Test
    void cutsAStringAsJsonbEscapesIt() {
        WordSet words = new WordSet();
        char[] text = "say \"hi\"\nthen\tleave\u0001now \\ok\u001fyes 𝔘𝔫𝔦 𝔘𝔫 ab".toCharArray();
        words.addJsonString(text, 0, text.length);
        assertEquals(List.of("say", "nthen", "tleave", "u0001now", "u001fyes", "𝔘𝔫𝔦"), List.copyOf(words.toSet()));
    }

    @Test
    void anEmptySetJoinsToNothing() {
        WordSet words = new WordSet();
        words.addText("a bc, d");
        assertTrue(words.isEmpty());
        assertEquals("", words.joined());
    }

    @Test
    void agreesWithThePlainRuleOverManyTextsAndWords() {
        Random random = new Random(28);
        String alphabet = "abcXYZ09é日𝔘 .,-_\"\\\n\t\u0002";
        for (int round = 0; round < 200; round++) {
            WordSet words = new WordSet();
            Set<String> expected = new LinkedHashSet<>();
            for (int text = 0; text < 1 + random.nextInt(20); text++) {
                StringBuilder value = new StringBuilder();
                for (int i = random.nextInt(3000); i > 0; i--) {
                    value.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0,
                            random.nextInt(alphabet.codePointCount(0, alphabet.length())))));
                }
                char[] chars = ("<" + value + ">").toCharArray();
                words.addJsonString(chars, 1, chars.length - 2);
                expected.addAll(plainWords(JsonText.escaped(value.toString())));
            }
            assertEquals(List.copyOf(expected), List.copyOf(words.toSet()));
            assertEquals(String.join(" ", expected), words.joined());
        }
    }

    private static Set<String> plainWords(String text) {
        Set<String> words = new LinkedHashSet<>();
        for (String word : text.split("[\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]")) {
            if (word.codePointCount(0, word.length()) >= 3) {
                words.add(word);
            }
        }
        return words;
    }
}
