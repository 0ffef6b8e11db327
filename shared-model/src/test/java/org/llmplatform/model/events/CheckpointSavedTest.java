package org.llmplatform.model.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CheckpointSavedTest {

    private static final ObjectMapper JSON = JsonMapper.builder().addModule(new JavaTimeModule()).build();

    @Test
    void aCompleteRecordHasNoProblem() {
        assertEquals(Optional.empty(), saved(CheckpointSaved.SCHEMA_VERSION, "model-1", 0).problem());
    }

    @Test
    void whatNoConsumerCanUseIsNamed() {
        assertEquals(Optional.of("unsupported schema_version 0"), saved(0, "model-1", 1).problem());
        assertEquals(Optional.of("unsupported schema_version 2"), saved(2, "model-1", 1).problem());
        assertEquals(Optional.of("model_id is required"), saved(1, null, 1).problem());
        assertEquals(Optional.of("model_id is required"), saved(1, " ", 1).problem());
        assertEquals(Optional.of("step must be 0 or more, got -1"), saved(1, "model-1", -1).problem());
    }

    @Test
    void theCheckIsNoFieldOnTheWire() throws Exception {
        CheckpointSaved saved = saved(1, "model-1", 3);
        String written = JSON.writeValueAsString(saved);
        assertFalse(JSON.readTree(written).has("problem"), written);
        assertEquals(saved, JSON.readValue(written, CheckpointSaved.class));
    }

    private static CheckpointSaved saved(int schemaVersion, String modelId, int step) {
        return new CheckpointSaved(schemaVersion, modelId, "job-1", "team", "rl", "agent", "base", step, null,
                Map.of("reward", 0.5), Instant.parse("2026-01-01T00:00:00Z"));
    }
}
