package org.llmplatform.inference.limits;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.error.ApiException;

/**
 * Reads and sets the limits of a project and of the API keys used in it ({@code /v1/limits}). Anyone who may use the
 * project reads them; only an admin of its team (of a user's own entity: that user) or a platform administrator
 * changes them. A change is in force at once on this replica, within {@code gateway.limits.refresh} on the others.
 */
@Singleton
public class LimitsService {

    private static final Set<String> FIELDS = Set.of("requests_per_minute", "tokens_per_minute", "tokens_per_day",
            "tokens_per_month");

    private final LimitsStore store;
    private final RateLimits limits;
    private final CurrentPrincipal caller;

    public LimitsService(LimitsStore store, RateLimits limits, CurrentPrincipal caller) {
        this.store = store;
        this.limits = limits;
        this.caller = caller;
    }

    public Uni<LimitsReport> report(String project) {
        ProjectId projectId = caller.requireProject(project);
        String id = projectId.toString();
        Instant now = Instant.now();
        return limits.flush().chain(() -> store.ofProject(id)).flatMap(set -> store.use(id, now).map(use -> {
            Map<String, Limits> setByKey = new HashMap<>();
            set.forEach(row -> setByKey.put(row.apiKeyId(), row.limits()));
            Map<String, LimitsStore.KeyUse> owners = new LinkedHashMap<>();
            Map<String, Map<LimitWindow, LimitsStore.Count>> counts = new HashMap<>();
            for (LimitsStore.KeyUse key : use) {
                String keyId = key.count().counter().apiKeyId();
                owners.putIfAbsent(keyId, key);
                counts.computeIfAbsent(keyId, ignored -> new HashMap<>()).put(key.count().counter().window(), key.count());
            }
            List<String> keyIds = new ArrayList<>(owners.keySet());
            setByKey.keySet().stream().filter(keyId -> !owners.containsKey(keyId)).forEach(keyIds::add);
            keyIds.remove(LimitsStore.PROJECT);
            List<LimitsReport.KeyLimits> keys = new ArrayList<>();
            for (String keyId : keyIds.stream().sorted().toList()) {
                LimitsStore.KeyUse owner = owners.get(keyId);
                keys.add(new LimitsReport.KeyLimits(keyId, owner == null ? null : owner.user(),
                        owner == null ? null : owner.hint(), setByKey.get(keyId), use(counts.get(keyId))));
            }
            return new LimitsReport("limits", id, mayChange(caller.get(), projectId),
                    new LimitsReport.Resets(LimitWindow.MINUTE.end(now).getEpochSecond(),
                            LimitWindow.DAY.end(now).getEpochSecond(), LimitWindow.MONTH.end(now).getEpochSecond()),
                    new LimitsReport.ProjectLimits(setByKey.get(LimitsStore.PROJECT), limits.ofProject(id),
                            use(counts.get(LimitsStore.PROJECT))),
                    keys);
        }));
    }

    /** Sets the project's limits ({@code apiKeyId} null) or a key's within it, from a JSON body of {@link Limits}. */
    public Uni<Limits> put(String project, String apiKeyId, JsonNode body) {
        ProjectId projectId = requireAdmin(project);
        Limits parsed = parse(body);
        Uni<Void> keyKnown = apiKeyId == null ? Uni.createFrom().voidItem() : store.keyExists(apiKeyId).invoke(exists -> {
            if (!exists) {
                throw ApiException.notFound("No API key with id '" + apiKeyId + "'");
            }
        }).replaceWithVoid();
        return keyKnown
                .chain(() -> store.put(projectId.toString(), keyOrProject(apiKeyId), parsed, caller.get().userName(),
                        Instant.now()))
                .chain(limits::reload)
                .replaceWith(parsed);
    }

    /** Removes the limits set for the project (its configured ones apply again) or for a key within it. */
    public Uni<Void> delete(String project, String apiKeyId) {
        ProjectId projectId = requireAdmin(project);
        return store.delete(projectId.toString(), keyOrProject(apiKeyId)).invoke(deleted -> {
            if (!deleted) {
                throw ApiException.notFound(apiKeyId == null ? "Project '" + projectId + "' has no limits set"
                        : "API key '" + apiKeyId + "' has no limits set in project '" + projectId + "'");
            }
        }).chain(limits::reload);
    }

    private ProjectId requireAdmin(String project) {
        ProjectId projectId = caller.requireProject(project);
        if (!mayChange(caller.get(), projectId)) {
            throw ApiException.forbidden("Only an admin of team '" + projectId.entity() + "' may change its limits");
        }
        return projectId;
    }

    private static boolean mayChange(Principal principal, ProjectId project) {
        return principal.isTeamAdmin(project.entity()) || principal.userName().equals(project.entity());
    }

    /** Each field a whole number of at least 0, or null (no limit of that kind); any other field refused by name. */
    static Limits parse(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiException.invalidField("model_attributes_type", List.of("body"), "Input should be an object", null);
        }
        body.fieldNames().forEachRemaining(field -> {
            if (!FIELDS.contains(field)) {
                throw ApiException.invalidField("extra_forbidden", List.of("body", field), "Extra inputs are not permitted",
                        body.get(field));
            }
        });
        return new Limits(count(body, "requests_per_minute"), count(body, "tokens_per_minute"),
                count(body, "tokens_per_day"), count(body, "tokens_per_month"));
    }

    private static Long count(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw ApiException.invalidField("int_type", List.of("body", field),
                    "Input should be a valid integer or null", value);
        }
        if (value.longValue() < 0) {
            throw ApiException.invalidField("greater_than_equal", List.of("body", field),
                    "Input should be greater than or equal to 0", value);
        }
        return value.longValue();
    }

    private static String keyOrProject(String apiKeyId) {
        return apiKeyId == null ? LimitsStore.PROJECT : apiKeyId;
    }

    private static LimitsReport.Use use(Map<LimitWindow, LimitsStore.Count> counts) {
        if (counts == null) {
            return LimitsReport.Use.NONE;
        }
        LimitsStore.Count minute = counts.get(LimitWindow.MINUTE);
        LimitsStore.Count day = counts.get(LimitWindow.DAY);
        LimitsStore.Count month = counts.get(LimitWindow.MONTH);
        return new LimitsReport.Use(minute == null ? 0 : minute.requests(), minute == null ? 0 : minute.tokens(),
                day == null ? 0 : day.tokens(), month == null ? 0 : month.tokens());
    }
}
