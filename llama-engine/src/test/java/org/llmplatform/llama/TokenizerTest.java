package org.llmplatform.llama;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TokenizerTest {

    private final Tokenizer tokenizer = SharedModels.stories260K().tokenizer();

    @Test
    void encodingStartsWithBosAndRoundTrips() {
        int[] tokens = tokenizer.encode("Once upon a time", true);
        assertEquals(Tokenizer.BOS, tokens[0]);
        assertTrue(tokens.length < "Once upon a time".length(), "pairs were merged");
        assertEquals("Once upon a time", tokenizer.decodeAll(Tokenizer.BOS, java.util.Arrays.copyOfRange(tokens, 1, tokens.length)));
    }

    @Test
    void charactersOutsideTheVocabularyFallBackToByteTokens() {
        int[] tokens = tokenizer.encode("é", false, false);
        byte[] utf8 = "é".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(new int[] {(utf8[0] & 0xff) + 3, (utf8[1] & 0xff) + 3}, tokens);
        assertEquals("é", tokenizer.decodeAll(0, tokens));
    }

    @Test
    void aMultiByteCharacterIsReleasedOnlyWhenComplete() {
        Utf8Accumulator text = new Utf8Accumulator();
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8);
        assertEquals("", text.append(new byte[] {euro[0]}));
        assertEquals("", text.append(new byte[] {euro[1]}));
        assertEquals("€!", text.append(new byte[] {euro[2], '!'}));
    }
}
