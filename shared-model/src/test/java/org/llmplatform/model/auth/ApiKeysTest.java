package org.llmplatform.model.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApiKeysTest {

    @Test
    void aGeneratedKeyIsFortyHexCharactersAndNeverRepeats() {
        String key = ApiKeys.generate();
        assertTrue(key.matches("[0-9a-f]{40}"), key);
        assertNotEquals(key, ApiKeys.generate());
    }

    @Test
    void theHashIsTheHexSha256OfTheKey() {
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", ApiKeys.hash("abc"));
    }

    @Test
    void bearerCarriesTheKeyAsIs() {
        assertEquals(Optional.of("k123"), ApiKeys.fromAuthorizationHeader("Bearer k123"));
        assertEquals(Optional.of("k123"), ApiKeys.fromAuthorizationHeader("bearer   k123 "));
    }

    @Test
    void basicCarriesTheKeyAsThePasswordOfAnyUser() {
        assertEquals(Optional.of("k:1"), ApiKeys.fromAuthorizationHeader("Basic " + base64("api:k:1")));
        assertEquals(Optional.of("k1"), ApiKeys.fromAuthorizationHeader("Basic " + base64("someone:k1")));
    }

    @Test
    void anythingElseCarriesNoKey() {
        assertEquals(Optional.empty(), ApiKeys.fromAuthorizationHeader(null));
        assertEquals(Optional.empty(), ApiKeys.fromAuthorizationHeader("k123"));
        assertEquals(Optional.empty(), ApiKeys.fromAuthorizationHeader("Bearer "));
        assertEquals(Optional.empty(), ApiKeys.fromAuthorizationHeader("Basic not-base64!"));
        assertEquals(Optional.empty(), ApiKeys.fromAuthorizationHeader("Basic " + base64("no-colon")));
        assertEquals(Optional.empty(), ApiKeys.fromAuthorizationHeader("Basic " + base64("api:")));
        assertEquals(Optional.empty(), ApiKeys.fromAuthorizationHeader("Digest abc"));
    }

    @Test
    void theHintShowsOnlyTheLastFourCharacters() {
        assertEquals("…cdef", ApiKeys.hint("0123456789abcdef"));
    }

    private static String base64(String value) {
        return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
    }
}
