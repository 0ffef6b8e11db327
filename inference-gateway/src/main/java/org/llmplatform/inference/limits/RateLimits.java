package org.llmplatform.inference.limits;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.OpenAiException;

/**
 * Requests and tokens per minute, tokens per day and per calendar month (UTC) of a project and of each API key in it
 * (docs/inference-gateway.md#limits-and-budgets). The limits are those set through {@code /v1/limits}, else the
 * configuration's.
 *
 * <p>Every replica reserves shares of each limit from the same database rows ({@link Allowance}), never more than
 * the limit between them, and admits requests from its share in memory: a request costs a statement only when the
 * share has run out (near a limit, every request). What each replica used is written every
 * {@code gateway.limits.flush}. The limits themselves are read from memory, reloaded from the database every
 * {@code gateway.limits.refresh} (at once on the replica that changed them).
 */
@Singleton
public class RateLimits {

    private static final Logger LOG = Logger.getLogger(RateLimits.class);
    private static final Duration LAST_FLUSH = Duration.ofSeconds(5);

    private final LimitsStore store;
    private final GatewayConfig config;
    private final AtomicBoolean flushing = new AtomicBoolean();
    private final Map<LimitsStore.Counter, Allowance> allowances = new ConcurrentHashMap<>();
    private volatile Book book = new Book(Map.of());

    public RateLimits(LimitsStore store, GatewayConfig config) {
        this.store = store;
        this.config = config;
    }

    void start(@Observes StartupEvent started, Vertx vertx) {
        reload().subscribe().with(ignored -> { }, failure -> LOG.warn("The limits could not be read", failure));
        // A limit another replica set is in force here within one refresh, whether or not requests come meanwhile.
        vertx.setPeriodic(config.limits().refresh().toMillis(), ignored -> reload().subscribe()
                .with(done -> { }, failure -> LOG.warn("The limits could not be reloaded", failure)));
        vertx.setPeriodic(config.limits().flush().toMillis(), ignored -> {
            if (flushing.compareAndSet(false, true)) {
                flush().onTermination().invoke(() -> flushing.set(false)).subscribe()
                        .with(done -> { }, failure -> LOG.warn("The limits' use could not be written", failure));
            }
        });
    }

    void stop(@Observes ShutdownEvent stopping) {
        try {
            flush().await().atMost(LAST_FLUSH);
        } catch (RuntimeException failure) {
            LOG.warn("The limits' last use could not be written", failure);
        }
    }

    /** Reads the limits from the database now. */
    public Uni<Void> reload() {
        return store.all().invoke(rows -> {
            Map<String, Limits> limits = new HashMap<>();
            rows.forEach(row -> limits.put(key(row.projectId(), row.apiKeyId()), row.limits()));
            book = new Book(limits);
        }).replaceWithVoid();
    }

    /** The limits in force for the project: those set for it, each kind it leaves unset from the configuration. */
    public Limits ofProject(String projectId) {
        Limits set = book.limits().getOrDefault(key(projectId, LimitsStore.PROJECT), Limits.NONE);
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
                : book.limits().getOrDefault(key(projectId, apiKeyId), Limits.NONE);
    }

    /**
     * Counts a request of {@code apiKeyId} (null for the bootstrap administrator, who has no key) in {@code projectId}
     * against every limit in force, or fails with the 429 its client gets: {@code rate_limit_exceeded} over a
     * per-minute or per-day limit, {@code insufficient_quota} over a monthly budget, with {@code Retry-After} until
     * the window ends. {@link LimitUse#NONE} at once when no limit applies; without a statement too while this
     * replica's share of each limit lasts.
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
        List<Claim> claims = new ArrayList<>();
        for (LimitUse.Subject subject : subjects) {
            for (LimitWindow window : LimitWindow.values()) {
                if (subject.limits().counts(window)) {
                    claims.add(new Claim(subject, allowance(new LimitsStore.Counter(projectId, subject.apiKeyId(), window,
                            window.start(now))), window == LimitWindow.MINUTE ? subject.limits().requestsPerMinute() : null,
                            subject.limits().tokens(window)));
                }
            }
        }
        return take(subjects, claims, now);
    }

    /** Takes the request from every claim's share, or settles the shares that ran short and tries again. */
    private Uni<LimitUse> take(List<LimitUse.Subject> subjects, List<Claim> claims, Instant now) {
        List<Claim> taken = new ArrayList<>(claims.size());
        List<Claim> shortOnes = new ArrayList<>();
        for (Claim claim : claims) {
            Allowance.Verdict verdict = claim.allowance().take(claim.requestLimit(), claim.tokenLimit());
            if (verdict == Allowance.Verdict.TAKEN) {
                taken.add(claim);
            } else if (verdict == Allowance.Verdict.SHORT) {
                shortOnes.add(claim);
            } else {
                taken.forEach(Claim::giveBack);
                return Uni.createFrom().failure(refusal(claim, verdict, claims, now));
            }
        }
        if (!shortOnes.isEmpty()) {
            taken.forEach(Claim::giveBack);
            return settle(shortOnes, true).chain(() -> take(subjects, claims, now));
        }
        return Uni.createFrom().item(LimitUse.of(this, subjects, LimitUse.rateLimitHeaders(usedThisMinute(claims), now)));
    }

    /** Adds a finished request's tokens to the shares of the windows it ended in; the next settlement writes them. */
    void charge(List<LimitUse.Subject> subjects, long tokens) {
        Instant now = Instant.now();
        for (LimitUse.Subject subject : subjects) {
            for (LimitWindow window : LimitWindow.values()) {
                if (subject.limits().counts(window)) {
                    allowance(new LimitsStore.Counter(subject.projectId(), subject.apiKeyId(), window, window.start(now)))
                            .charge(tokens);
                }
            }
        }
    }

    /**
     * Writes what this replica used and has not written yet, and forgets the shares of windows that ended: every
     * {@code gateway.limits.flush}, before the use is reported, and when the replica stops.
     */
    public Uni<Void> flush() {
        Instant now = Instant.now();
        List<Claim> dirty = new ArrayList<>();
        for (Allowance allowance : allowances.values()) {
            if (allowance.dirty()) {
                dirty.add(new Claim(null, allowance, null, null));
            } else if (!allowance.counter().window().end(allowance.counter().start()).isAfter(now)) {
                allowances.remove(allowance.counter(), allowance);
            }
        }
        return dirty.isEmpty() ? Uni.createFrom().voidItem() : settle(dirty, false);
    }

    /**
     * Settles the claims' shares (reserving more where {@code reserve}) in one statement, after one that creates the
     * rows this replica has not settled before; a share with a settlement in flight waits for that one instead.
     */
    private Uni<Void> settle(List<Claim> claims, boolean reserve) {
        List<CompletableFuture<Void>> waits = new ArrayList<>(claims.size());
        Map<LimitsStore.Counter, Allowance> mine = new HashMap<>();
        List<LimitsStore.Settlement> settlements = new ArrayList<>();
        for (Claim claim : claims) {
            Allowance.Turn turn = claim.allowance().beginSettling(claim.requestLimit(), claim.tokenLimit(), reserve);
            waits.add(turn.pending());
            if (turn.settlement() != null) {
                mine.put(claim.allowance().counter(), claim.allowance());
                settlements.add(turn.settlement());
            }
        }
        if (!settlements.isEmpty()) {
            List<LimitsStore.Counter> unstored = mine.values().stream().filter(allowance -> !allowance.stored())
                    .map(Allowance::counter).toList();
            Uni<Void> rows = unstored.isEmpty() ? Uni.createFrom().voidItem() : store.ensure(unstored);
            rows.chain(() -> store.settle(settlements)).subscribe().with(
                    settled -> apply(settlements, settled, mine),
                    failure -> settlements.forEach(settlement -> mine.get(settlement.counter()).failed(settlement)
                            .completeExceptionally(failure)));
        }
        Uni<Void> all = Uni.combine().all().unis(waits.stream().map(wait -> Uni.createFrom().completionStage(wait)).toList())
                .discardItems();
        // A request waiting on another request's settlement goes on on its own event loop, not on the other's.
        Context context = Vertx.currentContext();
        return context == null ? all : all.emitOn(task -> context.runOnContext(ignored -> task.run()));
    }

    private static void apply(List<LimitsStore.Settlement> settlements, List<LimitsStore.Settled> settled,
            Map<LimitsStore.Counter, Allowance> allowances) {
        Map<LimitsStore.Counter, LimitsStore.Settled> byCounter = new HashMap<>();
        settled.forEach(each -> byCounter.put(each.counter(), each));
        for (LimitsStore.Settlement settlement : settlements) {
            Allowance allowance = allowances.get(settlement.counter());
            LimitsStore.Settled answer = byCounter.get(settlement.counter());
            if (answer != null) {
                allowance.settled(settlement, answer).complete(null);
            } else {
                allowance.failed(settlement).completeExceptionally(
                        new IllegalStateException("The limit counter " + settlement.counter() + " has no row"));
            }
        }
    }

    private Allowance allowance(LimitsStore.Counter counter) {
        return allowances.computeIfAbsent(counter, Allowance::new);
    }

    /** The per-minute limits and use of each subject, for the {@code x-ratelimit-*} headers. */
    private static List<LimitUse.MinuteUse> usedThisMinute(List<Claim> claims) {
        List<LimitUse.MinuteUse> use = new ArrayList<>(claims.size());
        for (Claim claim : claims) {
            if (claim.allowance().counter().window() == LimitWindow.MINUTE) {
                use.add(new LimitUse.MinuteUse(claim.subject().limits(), claim.allowance().requestsUsed(),
                        claim.allowance().tokensUsed()));
            }
        }
        return use;
    }

    private static OpenAiException refusal(Claim claim, Allowance.Verdict verdict, List<Claim> claims, Instant now) {
        Map<String, String> headers = LimitUse.rateLimitHeaders(usedThisMinute(claims), now);
        LimitWindow window = claim.allowance().counter().window();
        if (verdict == Allowance.Verdict.REQUESTS_RUN_OUT) {
            return rateLimited(claim.subject(), window.limitName("requests"), "requests", claim.requestLimit(),
                    claim.allowance().requestsUsed(), now, window, headers);
        }
        long used = claim.allowance().tokensUsed();
        return window == LimitWindow.MONTH ? quotaExceeded(claim.subject(), claim.tokenLimit(), used, now, headers)
                : rateLimited(claim.subject(), window.limitName("tokens"), "tokens", claim.tokenLimit(), used, now,
                        window, headers);
    }

    /** A request's claim on one counter: the subject's share of it and the limits it is held to there (null: none). */
    private record Claim(LimitUse.Subject subject, Allowance allowance, Long requestLimit, Long tokenLimit) {

        void giveBack() {
            allowance.giveBack(requestLimit);
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

    private static String key(String projectId, String apiKeyId) {
        return projectId + "\n" + apiKeyId;
    }

    /** The limits set in the database, by project and key. */
    private record Book(Map<String, Limits> limits) {
    }
}
