package org.llmplatform.training.rest;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.fuzz.AccessFirstProbe;

/**
 * Every operation of the service's OpenAPI document answers an invalid request naming another entity's objects
 * with the access refusal, before any validation (docs/training-service.md#order-of-checks).
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AccessFirstTest {

    @TestHTTPResource("/")
    URI service;

    @Test
    void aStrangersInvalidRequestIsRefusedBeforeItIsValidated() throws Exception {
        AccessFirstProbe.of(service, 403, 404)
                .value("project", "probe")
                .unscoped("GET /health", "public liveness answer")
                .unscoped("GET /v1/health", "public liveness answer")
                .unscoped("GET /v1/preview/base-models", "the same list for every caller")
                .unscoped("POST /v1/preview/files", "stores a training file owned by the caller; names no entity, project or model")
                .assertEveryOperationRefusesAStrangerBeforeValidating();
    }
}
