package org.llmplatform.automation.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SignaturesTest {

    @Test
    void theSvcSignatureMatchesTheDocumentedVectors() {
        assertEquals("4tKqnWHayH0Vdy0mtiM/LbZ7bOGK7h+UrHO5F40Uk8U=",
                Signatures.svcSignature("your_api_secret", "{\"key1\": \"value1\", \"key2\": \"value2\"}".getBytes(StandardCharsets.UTF_8)));
        assertEquals("JA/VVjQfDNBzyscGiXDIZPlP3u3fUXRSFVBFSrDOCNI=",
                Signatures.svcSignature("s3cr3t", "{\"author\":\"zoë\"}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theStandardWebhooksSignatureMatchesTheLibraryVector() {
        assertEquals("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
                Signatures.standardWebhooksSignature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
                        1614265330L, "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8)));
    }
}
