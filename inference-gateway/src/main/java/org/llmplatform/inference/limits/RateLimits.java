package org.llmplatform.inference.limits;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.OpenAiException;

/**
 * Requests and tokens per minute, tokens per day and per calendar month (UTC) of a project and of each API key in it
 * (docs/inference-gateway.md#limits-and-budgets). The limits are those set through {@code /v1/limits}, else the
 * configuration's; every replica counts in the same database rows, so together they admit no more than a limit.
 *
 * <p>The limits themselves are read from memory, reloaded from the database at most {@code gateway.limits.refresh}
 * after the last load (at once on the replica that changed them): a request to which no limit applies costs no
 * statement at all, one to which some apply costs one statement when admitted and one when it ends.
 */
@ApplicationScoped
public class RateLimits {

    private static final Logger LOG = Logger.getLogger(RateLimits.class);

    private final LimitsStore store;
    private final GatewayConfig config;
    private final long refreshNanos;
    private final AtomicBoolean loading = new AtomicBoolean();
    private volatile Book book = new Book(Map.of());
    private volatile long loadedAt = Long.MIN_VALUE / 2;

    public RateLimits(LimitsStore store, GatewayConfig config) {
        this.store = store;
        this.config = config;
        this.refreshNanos = config.limits().refresh().toNanos();
    }

    void load(@Observes StartupEvent started) {
        reload().subscribe().with(ignored -> { }, failure -> LOG.warn("The limits could not be read", failure));
    }

    /** Reads the limits from the database now. */
    public Uni<Void> reload() {
        long started = System.nanoTime();
        return store.all().invoke(rows -> {
            Map<String, Limits> limits = new HashMap<>();
            rows.forEach(row -> limits.put(key(row.projectId(), row.apiKeyId()), row.limits()));
            book = new Book(limits);
            loadedAt = started;
        }).replaceWithVoid();
    }

    /** The limits in force for the project: those set for it, each kind it leaves unset from the configuration. */
    public Limits ofProject(String projectId) {
        Limits set = current().limits().getOrDefault(key(projectId, LimitsStore.PROJECT), Limits.NONE);
        Optional<GatewayConfig.ProjectRules> rules = Optional.ofNullable(config.projects().get(projectId));
        GatewayConfig.Limits every = config.limits();
        return set.orElse(new Limits(
                rules.flatMap(GatewayConfig.ProjectRules::requestsPerMinute).or(every::requestsPerMinute).orElse(null),
                rules.flatMap(GatewayConfig.ProjectRules::tokensPerMinute).or(every::tokensPerMinute).orElse(null),
                rules.flatMap(GatewayConfig.ProjectRules::tokensPerDay).or(every::tokensPerDay).orElse(null),
                rules.flatMap(GatewayConfig.ProjectRules::tokensPerMonth).or(every::tokensPerMonth).orElse(null)));
    }

    /** The limits set for one key within the project (a key has no configured default). */
    public Limits ofKey(String projectId, String apiKeyId) {
        return apiKeyId == null ? Limits.NONE
                : current().limits().getOrDefault(key(projectId, apiKeyId), Limits.NONE);
    }

    /**
     * Counts a request of {@code apiKeyId} (null for the bootstrap administrator, who has no key) in {@code projectId}
     * against every limit in force, or fails with the 429 its client gets: {@code rate_limit_exceeded} over a
     * per-minute or per-day limit, {@code insufficient_quota} over a monthly budget, with {@code Retry-After} until
     * the window ends. {@link LimitUse#NONE} at once, without a statement, when no limit applies.
     */
    public Uni<LimitUse> admit(String projectId, String apiKeyId) {
        List<LimitUse.Subject> subjects = new ArrayList<>(2);
        Limits project = ofProject(projectId);
        if (!project.isEmpty()) {
            subjects.add(new LimitUse.Subject(projectId, LimitsStore.PROJECT, project));
        }
        Limits key = ofKey(projectId, apiKeyId);
        if (!key.isEmpty()) {
            subjects.add(new LimitUse.Subject(projectId, apiKeyId, key));
        }
        if (subjects.isEmpty()) {
            return Uni.createFrom().item(LimitUse.NONE);
        }
        Instant now = Instant.now();
        List<LimitsStore.Counter> counters = new ArrayList<>();
        for (LimitUse.Subject subject : subjects) {
            for (LimitWindow window : LimitWindow.values()) {
                if (subject.limits().counts(window)) {
                    counters.add(new LimitsStore.Counter(projectId, subject.apiKeyId(), window, window.start(now)));
                }
            }
        }
        return store.count(counters).map(counts -> {
            Map<String, String> headers = LimitUse.rateLimitHeaders(subjects, counts, now);
            for (LimitUse.Subject subject : subjects) {
                refuseOver(subject, counts, now, headers);
            }
            return LimitUse.of(store, subjects, counts, now);
        });
    }

    private static void refuseOver(LimitUse.Subject subject, List<LimitsStore.Count> counts, Instant now,
            Map<String, String> headers) {
        Limits limits = subject.limits();
        for (LimitsStore.Count count : counts) {
            if (!count.counter().apiKeyId().equals(subject.apiKeyId())) {
                continue;
            }
            LimitWindow window = count.counter().window();
            Long tokens = limits.tokens(window);
            if (tokens != null && count.tokens() >= tokens) {
                throw window == LimitWindow.MONTH ? quotaExceeded(subject, tokens, count.tokens(), now, headers)
                        : rateLimited(subject, window.limitName("tokens"), "tokens", tokens, count.tokens(), now,
                                window, headers);
            }
            if (window == LimitWindow.MINUTE && limits.requestsPerMinute() != null
                    && count.requests() > limits.requestsPerMinute()) {
                throw rateLimited(subject, window.limitName("requests"), "requests", limits.requestsPerMinute(),
                        count.requests() - 1, now, window, headers);
            }
        }
    }

    /** OpenAI's 429 for a rate limit: its type names what ran out (tokens, requests). */
    private static OpenAiException rateLimited(LimitUse.Subject subject, String limitName, String type, long limit,
            long used, Instant now, LimitWindow window, Map<String, String> headers) {
        long retryAfter = secondsUntil(now, window.end(now));
        return new OpenAiException(429, "Rate limit reached for " + limitName + " on " + subject.describe() + ": Limit "
                + limit + ", Used " + used + ". Please try again in " + LimitUse.duration(Duration.ofSeconds(retryAfter))
                + ".", type, "rate_limit_exceeded", null, refusalHeaders(headers, retryAfter));
    }

    /** OpenAI's 429 for a spent quota ({@code insufficient_quota}), here until the month's budget starts again. */
    private static OpenAiException quotaExceeded(LimitUse.Subject subject, long limit, long used, Instant now,
            Map<String, String> headers) {
        long retryAfter = secondsUntil(now, LimitWindow.MONTH.end(now));
        return new OpenAiException(429, "You exceeded your current quota: " + subject.describe() + " used " + used
                + " of its " + limit + " tokens this month (UTC). The budget starts again at "
                + LimitWindow.MONTH.end(now) + "; a team admin may raise it.", "insufficient_quota",
                "insufficient_quota", null, refusalHeaders(headers, retryAfter));
    }

    private static Map<String, String> refusalHeaders(Map<String, String> rateLimitHeaders, long retryAfter) {
        Map<String, String> headers = new LinkedHashMap<>(rateLimitHeaders);
        headers.put("Retry-After", Long.toString(retryAfter));
        return headers;
    }

    private static long secondsUntil(Instant now, Instant end) {
        return Math.max(1, (Duration.between(now, end).toMillis() + 999) / 1000);
    }

    /** The loaded limits; a reload starts, without waiting for it, when they are older than the refresh interval. */
    private Book current() {
        if (System.nanoTime() - loadedAt > refreshNanos && loading.compareAndSet(false, true)) {
            reload().onTermination().invoke(() -> loading.set(false)).subscribe()
                    .with(ignored -> { }, failure -> LOG.warn("The limits could not be reloaded", failure));
        }
        return book;
    }

    private static String key(String projectId, String apiKeyId) {
        return projectId + "\n" + apiKeyId;
    }

    /** The limits set in the database, by project and key. */
    private record Book(Map<String, Limits> limits) {
    }
}
