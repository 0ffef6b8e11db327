package org.llmplatform.automation.rest;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.fuzz.AccessFirstProbe;

/**
 * Every operation of the service's OpenAPI document answers an invalid request naming another entity's objects
 * with the access refusal, before any validation (docs/automation-service.md#order-of-checks).
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AccessFirstTest {

    @TestHTTPResource("/")
    URI service;

    @Test
    void aStrangersInvalidRequestIsRefusedBeforeItIsValidated() throws Exception {
        AccessFirstProbe.of(service, 403, 404)
                .unscoped("GET /admin", "public: a redirect to the console's automation page")
                .unscoped("GET /admin/{file}", "public: a redirect to the console's automation page")
                .assertEveryOperationRefusesAStrangerBeforeValidating();
    }
}
