package org.llmplatform.inference.chat;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.fuzz.OpenApiFuzzer;

/** Malformed variants of every operation in the service's OpenAPI document get a JSON 4xx, never a 5xx. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class MalformedRequestTest {

    @TestHTTPResource("/")
    URI service;

    @Test
    void everyOperationAnswersMalformedRequestsWithAJsonClientError() throws Exception {
        OpenApiFuzzer.of(service, "error").assertEveryMalformedRequestGetsAJsonClientError();
    }
}
