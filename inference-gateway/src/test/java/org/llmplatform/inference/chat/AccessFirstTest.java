package org.llmplatform.inference.chat;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.http.BodyProbeResource;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.fuzz.AccessFirstProbe;

/**
 * Every operation of the service's OpenAPI document answers an invalid request naming another entity's objects
 * with the access refusal, before any validation (docs/inference-gateway.md#order-of-checks).
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AccessFirstTest {

    @TestHTTPResource("/")
    URI service;

    @Test
    void aStrangersInvalidRequestIsRefusedBeforeItIsValidated() throws Exception {
        AccessFirstProbe.of(service, 403, 404)
                .unscoped("POST /test/probe", "a test-only resource (BodyProbeResource)")
                .unscoped("GET /v1/models", "lists what the caller may use")
                .assertEveryOperationRefusesAStrangerBeforeValidating();
    }
}
