package org.llmplatform.tracing.http;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.fuzz.AccessFirstProbe;

/**
 * Every operation of the service's OpenAPI document answers an invalid request naming another entity's project
 * with 403, before any validation (docs/tracing-service.md#order-of-checks).
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AccessFirstTest {

    @TestHTTPResource("/")
    URI service;

    @Test
    void aStrangersInvalidRequestIsRefusedBeforeItIsValidated() throws Exception {
        AccessFirstProbe.of(service, 403)
                .unscoped("GET /health", "public liveness answer")
                .unscoped("GET /server_info", "public: what Weave clients ask before anything else")
                .unscoped("GET /projects", "lists only the caller's own entities and projects")
                .unscoped("GET /cost/defaults", "the platform's default prices, no project's")
                .unscoped("GET /admin/me", "the caller's own identity")
                .unscoped("POST /admin/users", "admin API: an administrator's key, checked before the body")
                .unscoped("GET /admin/teams", "admin API")
                .unscoped("POST /admin/teams", "admin API")
                .unscoped("GET /admin/teams/{team}/members", "admin API")
                .unscoped("PUT /admin/teams/{team}/members/{user}", "admin API")
                .unscoped("DELETE /admin/teams/{team}/members/{user}", "admin API")
                .unscoped("POST /admin/users/{user}/api-keys", "admin API")
                .unscoped("GET /admin/users/{user}/api-keys", "admin API")
                .unscoped("DELETE /admin/api-keys/{id}", "admin API")
                .assertEveryOperationRefusesAStrangerBeforeValidating();
    }
}
