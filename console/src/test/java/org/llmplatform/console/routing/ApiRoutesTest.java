package org.llmplatform.console.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.llmplatform.console.config.ConsoleConfig;

class ApiRoutesTest {

    @Test
    void theLongestMatchingPrefixWinsAndATrailingSlashIsTheSamePrefix() {
        ApiRoutes routes = ApiRoutes.of(upstreams(Map.of("inference", List.of("/v1/"), "training", List.of("/v1/preview"))));
        assertEquals("training", routes.find("/v1/preview/training-jobs").orElseThrow().service());
        assertEquals("inference", routes.find("/v1/previewx").orElseThrow().service());
        assertEquals("inference", routes.find("/v1").orElseThrow().service());
        assertEquals(Optional.empty(), routes.find("/v10/models"));
        assertEquals(Optional.empty(), routes.find("/"));
    }

    @Test
    void aPrefixMayNotHideTheConsolesOwnPaths() {
        for (String prefix : List.of("/assets", "/assets/x", "/q", "/webjars/echarts")) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> ApiRoutes.of(upstreams(Map.of("tracing", List.of(prefix)))));
            assertTrue(error.getMessage().contains("console.upstreams.tracing.prefixes"), error.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> ApiRoutes.of(upstreams(Map.of("tracing", List.of("/")))));
        assertThrows(IllegalArgumentException.class, () -> ApiRoutes.of(upstreams(Map.of("tracing", List.of("calls")))));
    }

    @Test
    void onePrefixCannotGoToTwoServices() {
        Map<String, List<String>> both = new LinkedHashMap<>();
        both.put("tracing", List.of("/events"));
        both.put("automation", List.of("/events/"));
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ApiRoutes.of(upstreams(both)));
        assertTrue(error.getMessage().contains("both tracing and automation"), error.getMessage());
    }

    private static Map<String, ConsoleConfig.Upstream> upstreams(Map<String, List<String>> prefixes) {
        Map<String, ConsoleConfig.Upstream> upstreams = new LinkedHashMap<>();
        prefixes.forEach((service, list) -> upstreams.put(service, new ConsoleConfig.Upstream() {
            @Override
            public List<URI> url() {
                return List.of(URI.create("http://" + service + ":8080"));
            }

            @Override
            public List<String> prefixes() {
                return list;
            }

            @Override
            public ConsoleConfig.ErrorBody errorBody() {
                return ConsoleConfig.ErrorBody.REASON;
            }
        }));
        return upstreams;
    }
}
