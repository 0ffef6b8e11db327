package org.llmplatform.support.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.events.CheckpointSaved;

class EventReaderTest {

    private static final ObjectMapper JSON = JsonMapper.builder().addModule(new JavaTimeModule()).build();
    private static final EventReader<CheckpointSaved> READER = new EventReader<>(JSON, "training.checkpoints", CheckpointSaved.class,
            saved -> saved.problem().or(() -> EventReader.notAUuid(saved.modelId(), "model_id")));
    private static final String MODEL = "4f0d5e2a-8c1b-4f8e-9d3a-2b7c6e5f1a90";

    @Test
    void readsAValidEventWithTheNumbersPythonWrites() {
        CheckpointSaved saved = READER.read("""
                {"schema_version": 1, "model_id": "%s", "step": 2, "metrics": {"loss": NaN, "reward": 0.5},
                 "created_at": "2026-01-01T00:00:00Z"}""".formatted(MODEL));
        assertEquals(2, saved.step());
        assertTrue(saved.metrics().get("loss").isNaN());
        assertEquals(0.5, saved.metrics().get("reward"));
    }

    @Test
    void saysWhyARecordIsNoEvent() {
        assertMalformed(null, "empty record: a CheckpointSaved JSON object was expected");
        assertMalformed(" ", "empty record: a CheckpointSaved JSON object was expected");
        assertMalformed("null", "null record: a CheckpointSaved JSON object was expected");
        assertTrue(malformed("not json").startsWith("not a CheckpointSaved JSON object: "), malformed("not json"));
        assertTrue(malformed("{\"step\": \"two\"}").startsWith("not a CheckpointSaved JSON object: "));
        assertMalformed("{\"schema_version\": 1, \"model_id\": \"" + MODEL + "\", \"step\": -1}", "step must be 0 or more, got -1");
        assertMalformed("{\"schema_version\": 1, \"model_id\": \"model-7\", \"step\": 1}", "model_id 'model-7' is not a UUID");
        assertMalformed("{\"schema_version\": 9, \"model_id\": \"" + MODEL + "\", \"step\": 1}", "unsupported schema_version 9");
    }

    @Test
    void aMalformedRecordFailsTheUniThatDeadLettersIt() {
        MalformedEvent failure = assertThrows(MalformedEvent.class, () -> READER.readOrDeadLetter("{}").await().indefinitely());
        assertEquals("unsupported schema_version 0", failure.getMessage());
        assertEquals(3, READER.readOrDeadLetter("{\"schema_version\": 1, \"model_id\": \"" + MODEL + "\", \"step\": 3}")
                .await().indefinitely().step());
    }

    @Test
    void uuidChecks() {
        assertEquals(Optional.empty(), EventReader.notAUuid(MODEL, "job_id"));
        assertEquals(Optional.of("job_id is required"), EventReader.notAUuid(null, "job_id"));
        assertEquals(Optional.of("job_id 'x' is not a UUID"), EventReader.notAUuid("x", "job_id"));
    }

    private static void assertMalformed(String record, String reason) {
        assertEquals(reason, malformed(record));
    }

    private static String malformed(String record) {
        return assertThrows(MalformedEvent.class, () -> READER.read(record)).getMessage();
    }
}
