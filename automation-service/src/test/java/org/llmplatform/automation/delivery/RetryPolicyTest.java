package org.llmplatform.automation.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private final RetryPolicy policy = new RetryPolicy(List.of(Duration.ofSeconds(5), Duration.ofMinutes(5)), 0.2, Duration.ofSeconds(60));

    @Test
    void delaysFollowTheScheduleWithinTheJitter() {
        for (int i = 0; i < 100; i++) {
            long first = Duration.between(NOW, policy.next(1, answer(500, Map.of()), NOW)).toMillis();
            assertTrue(first >= 4000 && first <= 6000, "first retry after " + first);
            long second = Duration.between(NOW, policy.next(2, answer(500, Map.of()), NOW)).toMillis();
            assertTrue(second >= 240_000 && second <= 360_000, "second retry after " + second);
        }
    }

    @Test
    void theScheduleEnds() {
        assertNull(policy.next(3, answer(500, Map.of()), NOW));
    }

    @Test
    void throttlingWaitsAtLeastAMinute() {
        long delay = Duration.between(NOW, policy.next(1, answer(429, Map.of()), NOW)).toMillis();
        assertEquals(60_000, delay);
        long timeout = Duration.between(NOW, policy.next(1, new SendResult(null, Map.of(), null, "slow", true, 2000), NOW)).toMillis();
        assertEquals(60_000, timeout);
    }

    @Test
    void retryAfterIsHonouredWithinTwiceTheDelay() {
        long asked = Duration.between(NOW, policy.next(2, answer(503, Map.of("Retry-After", "400")), NOW)).toSeconds();
        assertEquals(400, asked, 1);
        long clamped = Duration.between(NOW, policy.next(2, answer(503, Map.of("Retry-After", "100000")), NOW)).toSeconds();
        assertTrue(clamped <= 720, "clamped to " + clamped);
        assertEquals(Duration.ofSeconds(30), RetryPolicy.retryAfter("Thu, 01 Jan 2026 00:00:30 GMT", NOW));
    }

    private static SendResult answer(int status, Map<String, String> headers) {
        return new SendResult(status, headers, "", null, false, 5);
    }
}
