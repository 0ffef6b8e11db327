package org.llmplatform.inference.limits;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The limits an admitted request is counted against (its project's, its key's) and the {@code x-ratelimit-*} headers of
 * its answer, as they stood when it was admitted; it charges the request's tokens when it ends. {@link #NONE} when no
 * limit applies.
 */
public final class LimitUse {

    public static final LimitUse NONE = new LimitUse(null, List.of(), Map.of());

    static final String LIMIT_REQUESTS = "x-ratelimit-limit-requests";
    static final String REMAINING_REQUESTS = "x-ratelimit-remaining-requests";
    static final String RESET_REQUESTS = "x-ratelimit-reset-requests";
    static final String LIMIT_TOKENS = "x-ratelimit-limit-tokens";
    static final String REMAINING_TOKENS = "x-ratelimit-remaining-tokens";
    static final String RESET_TOKENS = "x-ratelimit-reset-tokens";

    private final RateLimits limits;
    private final List<Subject> subjects;
    private final Map<String, String> headers;

    private LimitUse(RateLimits limits, List<Subject> subjects, Map<String, String> headers) {
        this.limits = limits;
        this.subjects = subjects;
        this.headers = headers;
    }

    /** A project or a key within it ({@code apiKeyId} {@link LimitsStore#PROJECT}), with the limits in force for it. */
    record Subject(String projectId, String apiKeyId, Limits limits) {

        String describe() {
            return LimitsStore.PROJECT.equals(apiKeyId) ? "project `" + projectId + "`"
                    : "API key `" + apiKeyId + "` in project `" + projectId + "`";
        }
    }

    /** A subject's limits and its requests and tokens used in the current minute. */
    record MinuteUse(Limits limits, long requests, long tokens) {
    }

    static LimitUse of(RateLimits limits, List<Subject> subjects, Map<String, String> headers) {
        return new LimitUse(limits, subjects, headers);
    }

    /**
     * OpenAI's headers of the per-minute limits: each the tightest of the project's and the key's (the fewest left),
     * none for a kind no limit applies to. Reset is the time until the minute ends, as OpenAI writes durations.
     */
    static Map<String, String> rateLimitHeaders(List<MinuteUse> use, Instant at) {
        Map<String, String> headers = new LinkedHashMap<>();
        String reset = duration(Duration.between(at, LimitWindow.MINUTE.end(at)));
        long[] requests = tightest(use, true);
        if (requests != null) {
            headers.put(LIMIT_REQUESTS, Long.toString(requests[0]));
            headers.put(REMAINING_REQUESTS, Long.toString(Math.max(0, requests[0] - requests[1])));
            headers.put(RESET_REQUESTS, reset);
        }
        long[] tokens = tightest(use, false);
        if (tokens != null) {
            headers.put(LIMIT_TOKENS, Long.toString(tokens[0]));
            headers.put(REMAINING_TOKENS, Long.toString(Math.max(0, tokens[0] - tokens[1])));
            headers.put(RESET_TOKENS, reset);
        }
        return Map.copyOf(headers);
    }

    /** The limit and the use of the subject with the least left of its per-minute requests (or tokens); null if none. */
    private static long[] tightest(List<MinuteUse> use, boolean requests) {
        long[] tightest = null;
        for (MinuteUse subject : use) {
            Long limit = requests ? subject.limits().requestsPerMinute() : subject.limits().tokensPerMinute();
            if (limit == null) {
                continue;
            }
            long used = requests ? subject.requests() : subject.tokens();
            if (tightest == null || limit - used < tightest[0] - tightest[1]) {
                tightest = new long[] {limit, used};
            }
        }
        return tightest;
    }

    /** A duration as OpenAI's headers write it: {@code 20ms}, {@code 1s}, {@code 6m0s}, {@code 71h59m0s}. */
    public static String duration(Duration duration) {
        long millis = Math.max(0, duration.toMillis());
        if (millis < 1000) {
            return millis + "ms";
        }
        long seconds = (millis + 999) / 1000;
        if (seconds < 60) {
            return seconds + "s";
        }
        long hours = seconds / 3600;
        long minutes = seconds % 3600 / 60;
        return (hours > 0 ? hours + "h" : "") + minutes + "m" + seconds % 60 + "s";
    }

    /** The {@code x-ratelimit-*} headers of the request's answer; empty when no per-minute limit applies. */
    public Map<String, String> headers() {
        return headers;
    }

    /** Adds a finished request's tokens to the use of the windows it ended in that a limit applies to. */
    public void charge(long tokens) {
        if (tokens > 0 && !subjects.isEmpty()) {
            limits.charge(subjects, tokens);
        }
    }
}
