package org.llmplatform.automation.delivery;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.llmplatform.automation.config.AutomationConfig;

/**
 * When to try a failed delivery again (docs/automation-service.md#delivery-defaults): the configured schedule with ±jitter; at least the throttle
 * delay after a 429, 502, 504 or a timeout; a {@code Retry-After} is honoured within [delay, 2 × delay].
 */
@ApplicationScoped
public class RetryPolicy {

    private final List<Duration> schedule;
    private final double jitter;
    private final Duration throttleDelay;

    @Inject
    public RetryPolicy(AutomationConfig config) {
        this(config.delivery().retrySchedule(), config.delivery().jitter(), config.delivery().throttleDelay());
    }

    RetryPolicy(List<Duration> schedule, double jitter, Duration throttleDelay) {
        this.schedule = List.copyOf(schedule);
        this.jitter = jitter;
        this.throttleDelay = throttleDelay;
    }

    /** When attempt {@code attemptNumber} (from 1) failed with {@code result}: the next attempt's time, or null for none. */
    public Instant next(int attemptNumber, SendResult result, Instant now) {
        if (attemptNumber > schedule.size()) {
            return null;
        }
        long scheduled = schedule.get(attemptNumber - 1).toMillis();
        long delay = Math.round(scheduled * (1 + jitter * (2 * ThreadLocalRandom.current().nextDouble() - 1)));
        if (throttled(result)) {
            delay = Math.max(delay, throttleDelay.toMillis());
        }
        Duration retryAfter = retryAfter(result.header("Retry-After"), now);
        if (retryAfter != null) {
            delay = Math.min(Math.max(retryAfter.toMillis(), delay), 2 * delay);
        }
        return now.plusMillis(delay);
    }

    private static boolean throttled(SendResult result) {
        Integer status = result.statusCode();
        return result.timedOut() || status != null && (status == 429 || status == 502 || status == 504);
    }

    /** Seconds or an HTTP date; null when absent or unreadable. */
    static Duration retryAfter(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String value = header.strip();
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(value)));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                return at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO;
            } catch (DateTimeParseException notADate) {
                return null;
            }
        }
    }
}
