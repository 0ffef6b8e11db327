package org.llmplatform.automation.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.support.error.ApiException;

class EventFilterTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theSdkShapeOfAnAliasRegexMatchesAnyAlias() throws Exception {
        JsonNode filter = JSON.readTree("{\"$or\":[{\"$and\":[{\"alias\":{\"$regex\":\"prod-.*\"}}]}]}");
        EventFilter.validate(filter, List.of());
        assertTrue(EventFilter.matches(filter, Map.of("alias", List.of("latest", "prod-eu"), "tag", List.of())));
        assertFalse(EventFilter.matches(filter, Map.of("alias", List.of("staging"), "tag", List.of())));
    }

    @Test
    void aSavedFilterIsUnwrapped() throws Exception {
        JsonNode filter = EventFilter.unwrap(JSON.readTree("{\"filter\": {\"tag\": {\"$eq\": \"europe\"}}}"));
        assertTrue(EventFilter.matches(filter, Map.of("alias", List.of(), "tag", List.of("europe"))));
    }

    @Test
    void noFilterMatchesEverything() throws Exception {
        assertTrue(EventFilter.matches(JSON.readTree("{}"), Map.of("alias", List.of(), "tag", List.of())));
        assertTrue(EventFilter.matches(JSON.readTree("{\"$or\":[{\"$and\":[]}]}"), Map.of("alias", List.of(), "tag", List.of())));
    }

    @Test
    void negationsAndListsFollowMongo() throws Exception {
        Map<String, List<String>> event = Map.of("alias", List.of("v1", "latest"), "tag", List.of("europe"));
        assertFalse(EventFilter.matches(JSON.readTree("{\"alias\": {\"$ne\": \"latest\"}}"), event));
        assertTrue(EventFilter.matches(JSON.readTree("{\"alias\": {\"$in\": [\"x\", \"v1\"]}}"), event));
        assertTrue(EventFilter.matches(JSON.readTree("{\"$nor\": [{\"tag\": \"asia\"}]}"), event));
        assertTrue(EventFilter.matches(JSON.readTree("{\"tag\": {\"$regex\": \"^EUR\", \"$options\": \"i\"}}"), event));
    }

    @Test
    void anInvalidRegexIsA422NamingWhereItIs() throws Exception {
        JsonNode filter = JSON.readTree("{\"$or\":[{\"alias\":{\"$regex\":\"prod-(\"}}]}");
        ApiException refused = assertThrows(ApiException.class, () -> EventFilter.validate(filter, List.of("body", "event", "filter")));
        assertEquals(422, refused.status());
        assertEquals(List.of("body", "event", "filter", "$or", 0, "alias", "$regex"), refused.issues().get(0).loc());
    }

    @Test
    void anUnknownFieldIsRefused() throws Exception {
        assertThrows(ApiException.class, () -> EventFilter.validate(JSON.readTree("{\"display_name\": \"x\"}"), List.of()));
    }
}
