package org.llmplatform.inference.limits;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.llmplatform.inference.catalog.ModelCatalog;
import org.llmplatform.inference.catalog.ServedModel;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.OpenAiException;

/**
 * What a project may do (docs/inference-gateway.md#project-rules): the models it may use, and how many tokens (per minute, per day)
 * and requests (per minute) it may spend. A request is admitted while the project is under every
 * limit; its tokens are charged when it ends. Over a limit: 429 with Retry-After until the window ends.
 */
@ApplicationScoped
public class ProjectPolicy {

    private static final Duration MINUTE = Duration.ofMinutes(1);
    private static final Duration DAY = Duration.ofDays(1);

    private final GatewayConfig config;
    private final ModelCatalog catalog;
    private final Clock clock;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    public ProjectPolicy(GatewayConfig config, ModelCatalog catalog) {
        this.config = config;
        this.catalog = catalog;
        this.clock = Clock.systemUTC();
    }

    /**
     * Refuses a model outside the project's allow-list (a request without {@code model} asks for the
     * default one), or a project over one of its limits; else counts the request. The counts are this
     * replica's: with several replicas a project may use up to its limits on each.
     */
    public void admit(String project, String model) {
        Optional<GatewayConfig.ProjectRules> rules = Optional.ofNullable(config.projects().get(project));
        Optional<List<String>> allowed = rules.flatMap(GatewayConfig.ProjectRules::allowedModels);
        if (allowed.isPresent()) {
            String asked = model != null && !model.isEmpty() ? model
                    : catalog.first().map(ServedModel::id).orElse(null);
            if (asked != null && !allowed.get().contains(asked)) {
                throw new OpenAiException(403, "Project `" + project + "` does not have access to model `" + asked
                        + "`", "invalid_request_error", "model_not_found", "model", Map.of());
            }
        }
        long now = clock.millis();
        check(project, "tokens per min (TPM)", limit(rules, GatewayConfig.ProjectRules::tokensPerMinute,
                config.limits().tokensPerMinute()), MINUTE, now, 0);
        check(project, "tokens per day (TPD)", limit(rules, GatewayConfig.ProjectRules::tokensPerDay,
                config.limits().tokensPerDay()), DAY, now, 0);
        check(project, "requests per min (RPM)", limit(rules, GatewayConfig.ProjectRules::requestsPerMinute,
                config.limits().requestsPerMinute()), MINUTE, now, 1);
    }

    /** Charges the tokens of a finished request to its project's token windows (those a limit applies to). */
    public void charge(String project, long tokens) {
        if (tokens <= 0) {
            return;
        }
        Optional<GatewayConfig.ProjectRules> rules = Optional.ofNullable(config.projects().get(project));
        long now = clock.millis();
        if (limit(rules, GatewayConfig.ProjectRules::tokensPerMinute, config.limits().tokensPerMinute()).isPresent()) {
            window(project, "tokens per min (TPM)", MINUTE, now).add(now, tokens);
        }
        if (limit(rules, GatewayConfig.ProjectRules::tokensPerDay, config.limits().tokensPerDay()).isPresent()) {
            window(project, "tokens per day (TPD)", DAY, now).add(now, tokens);
        }
    }

    private void check(String project, String kind, Optional<Long> limit, Duration length, long now, long taking) {
        if (limit.isEmpty()) {
            return;
        }
        Window window = window(project, kind, length, now);
        long used = window.usedAndTake(now, limit.get(), taking);
        if (used >= 0) {
            long retryAfter = Math.max(1, (window.endsAt(now) - now + 999) / 1000);
            throw new OpenAiException(429, "Rate limit reached for " + kind + " on project `" + project + "`: Limit "
                    + limit.get() + ", Used " + used + ". Please try again in " + retryAfter + "s.",
                    kind.startsWith("tokens") ? "tokens" : "requests", "rate_limit_exceeded", null,
                    Map.of("Retry-After", Long.toString(retryAfter)));
        }
    }

    private static Optional<Long> limit(Optional<GatewayConfig.ProjectRules> rules,
            Function<GatewayConfig.ProjectRules, Optional<Long>> own, Optional<Long> everyProject) {
        return rules.flatMap(own).or(() -> everyProject);
    }

    private Window window(String project, String kind, Duration length, long now) {
        return windows.computeIfAbsent(project + "\n" + kind, ignored -> new Window(length.toMillis(), now));
    }

    /** A fixed window (a minute or a day from its first use) of what a project used in it. */
    private static final class Window {
        private final long length;
        private long start;
        private long used;

        Window(long length, long now) {
            this.length = length;
            this.start = now;
        }

        synchronized void add(long now, long amount) {
            roll(now);
            used += amount;
        }

        /** -1 and takes {@code taking} when under {@code limit}; else what was used (nothing taken). */
        synchronized long usedAndTake(long now, long limit, long taking) {
            roll(now);
            if (used >= limit) {
                return used;
            }
            used += taking;
            return -1;
        }

        synchronized long endsAt(long now) {
            roll(now);
            return start + length;
        }

        private void roll(long now) {
            if (now >= start + length) {
                start = now;
                used = 0;
            }
        }
    }
}
