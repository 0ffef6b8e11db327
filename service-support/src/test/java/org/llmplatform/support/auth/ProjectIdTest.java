package org.llmplatform.support.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.llmplatform.support.error.ApiException;

class ProjectIdTest {

    @Test
    void anEntityAndAProjectOfLettersDigitsUnderscoresPointsAndDashes() {
        assertEquals(new ProjectId("my-team_1.0", "Eval.Runs-2"), ProjectId.parse("my-team_1.0/Eval.Runs-2"));
        assertEquals(new ProjectId("e".repeat(128), "p"), ProjectId.parse("e".repeat(128) + "/p"));
    }

    @Test
    void anythingElseIsRefused() {
        for (String refused : new String[] {"noslash", "a/b/c", "/p", "e/", "e p/q", "e/p!", "é/p", "e/" + "p".repeat(129)}) {
            assertThrows(ApiException.class, () -> ProjectId.parse(refused), refused);
        }
    }
}
