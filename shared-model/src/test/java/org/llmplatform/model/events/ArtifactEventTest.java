package org.llmplatform.model.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ArtifactEventTest {

    private static final ObjectMapper JSON = JsonMapper.builder().addModule(new JavaTimeModule()).build();

    @Test
    void theVersionIndexTravelsAsAnOptionalField() throws Exception {
        ArtifactEvent event = event("9f2c0ad1", List.of("latest"), 4);
        String written = JSON.writeValueAsString(event);
        assertEquals(4, JSON.readTree(written).get("version_index").intValue());
        assertFalse(JSON.readTree(written).has("known_version_index"), written);
        assertEquals(event, JSON.readValue(written, ArtifactEvent.class));

        ArtifactEvent older = JSON.readValue("""
                {"schema_version": 1, "event_id": "e1", "event_type": "LINK_ARTIFACT", "entity": "team",
                 "project": "p", "collection": "c", "version": "v3", "aliases": [], "tags": []}""", ArtifactEvent.class);
        assertNull(older.versionIndex());
        assertEquals(Optional.of(3), older.knownVersionIndex());
    }

    @Test
    void theIndexIsTheFieldElseAVersionOrAliasNamedVN() {
        assertEquals(Optional.of(4), event("v9", List.of("v7"), 4).knownVersionIndex());
        assertEquals(Optional.of(12), event("v12", List.of("latest"), null).knownVersionIndex());
        assertEquals(Optional.of(2), event("9f2c0ad1", List.of("latest", "v2"), null).knownVersionIndex());
        assertEquals(Optional.empty(), event("9f2c0ad1", List.of("latest", "vnext", "v1.2"), null).knownVersionIndex());
        assertEquals(Optional.empty(), event(null, null, null).knownVersionIndex());
    }

    private static ArtifactEvent event(String version, List<String> aliases, Integer index) {
        return new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, "e1", ArtifactEventType.LINK_ARTIFACT, "team", "p", "c", version,
                aliases, List.of(), "ada", Map.of(), Instant.parse("2025-01-01T00:00:00Z"), index);
    }
}
