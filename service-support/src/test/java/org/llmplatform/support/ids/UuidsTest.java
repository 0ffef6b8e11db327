package org.llmplatform.support.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
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
        long after = System.currentTimeMillis();

        assertEquals(7, id.version());
        assertEquals(2, id.variant());
        long millis = id.getMostSignificantBits() >>> 16;
        assertTrue(millis >= before && millis <= after, millis + " within [" + before + ", " + after + "]");
    }

    @Test
    void idsOfALaterMillisecondSortLaterAndNoTwoAreEqual() throws InterruptedException {
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            assertTrue(seen.add(Uuids.v7()));
        }
        String earlier = Uuids.v7().toString();
        Thread.sleep(2);
        String later = Uuids.v7().toString();

        assertTrue(earlier.compareTo(later) < 0, earlier + " sorts before " + later);
    }
}
