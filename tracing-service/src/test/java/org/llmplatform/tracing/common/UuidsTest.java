package org.llmplatform.tracing.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidsTest {

    private static final Instant AT = Instant.parse("2025-03-01T10:00:00.123Z");

    @Test
    void aNamedIdIsAVersion7IdOfItsTimeAndTheSameForTheSameNameAndTime() {
        UUID id = Uuids.v7(AT, "req-1");

        assertEquals(7, id.version());
        assertEquals(2, id.variant());
        assertEquals(AT.toEpochMilli(), id.getMostSignificantBits() >>> 16);
        assertEquals(id, Uuids.v7(AT, "req-1"));
        assertNotEquals(id, Uuids.v7(AT, "req-2"));
    }

    @Test
    void idsOfLaterTimesSortLaterWhateverTheirNames() {
        String earlier = Uuids.v7(AT, "zzz").toString();
        String later = Uuids.v7(AT.plusMillis(1), "aaa").toString();

        assertTrue(earlier.compareTo(later) < 0, earlier + " sorts before " + later);
    }

    @Test
    void aNewIdIsAVersion7IdOfNow() {
        long before = System.currentTimeMillis();
        UUID id = Uuids.v7();

        assertEquals(7, id.version());
        assertEquals(2, id.variant());
        long millis = id.getMostSignificantBits() >>> 16;
        assertTrue(millis >= before && millis <= System.currentTimeMillis());
    }
}
