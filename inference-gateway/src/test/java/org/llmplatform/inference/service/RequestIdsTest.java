package org.llmplatform.inference.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RequestIdsTest {

    @Test
    void anIdIsAVersion7UuidOfNow() {
        long before = System.currentTimeMillis();
        UUID id = RequestIds.next();
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
            assertTrue(seen.add(RequestIds.next()));
        }
        String earlier = RequestIds.next().toString();
        Thread.sleep(2);
        String later = RequestIds.next().toString();

        assertTrue(earlier.compareTo(later) < 0, earlier + " sorts before " + later);
    }
}
