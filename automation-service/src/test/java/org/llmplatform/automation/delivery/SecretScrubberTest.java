package org.llmplatform.automation.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretScrubberTest {

    @Test
    void everyEchoedFormOfASecretIsMasked() {
        SecretScrubber scrubber = SecretScrubber.of(List.of("a+b/c\"d"));
        assertEquals("raw *** json *** url *** b64 *** b64url *** upper ***",
                scrubber.scrub("raw a+b/c\"d json a+b/c\\\"d url a%2Bb%2Fc%22d b64 YStiL2MiZA== b64url YStiL2MiZA upper A+B/C\"D"));
    }

    @Test
    void theKeyOfAStandardWebhooksSecretIsMaskedAlone() {
        SecretScrubber scrubber = SecretScrubber.of(List.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        assertEquals("*** and ***", scrubber.scrub("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw and MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
    }

    @Test
    void aSecretBeyondAsciiIsMaskedInAnyCaseWhereverItRecurs() {
        SecretScrubber scrubber = SecretScrubber.of(List.of("clé-Ω"));
        assertEquals("***, *** and *** (url ***)", scrubber.scrub("clé-Ω, CLÉ-ω and Clé-Ω (url cl%c3%a9-%CE%A9)"));
    }

    @Test
    void absentSecretsAndTextsChangeNothing() {
        SecretScrubber scrubber = SecretScrubber.of(Arrays.asList(null, ""));
        assertEquals("nothing to hide", scrubber.scrub("nothing to hide"));
        assertNull(scrubber.scrub(null));
    }

    @Test
    void aResultIsScrubbedInItsHeadersBodyAndError() {
        SendResult result = new SendResult(200, Map.of("x-echo-t0k", "Bearer T0K"), "body T0K", "error t0k", false, 3);
        SendResult scrubbed = result.scrubbed(List.of("T0K"));
        assertEquals(Map.of("x-echo-***", "Bearer ***"), scrubbed.headers());
        assertEquals("body ***", scrubbed.body());
        assertEquals("error ***", scrubbed.error());
        assertEquals(200, scrubbed.statusCode());
    }
}
