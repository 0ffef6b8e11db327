package org.llmplatform.tracing.calls;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Weave's "calls complete mode" (docs/tracing-service.md#calls-complete-mode): a project whose first calls came
 * through the v2 API refuses the v1 writes with {@link CallsCompleteModeRequired}, which makes the SDKs switch to
 * the v2 API. All calls live in one table either way: the mode only decides which API a project answers, as the
 * reference's routing does ({@code PROJECT_VERSION_MODE=auto}); {@code tracing.calls.complete-mode=off} never
 * refuses (the reference's {@code off}).
 */
@ApplicationScoped
public class CallWriteModes {

    /** Decided modes never change, so any replica may keep them; the bound only caps memory. */
    private static final int MAX_REMEMBERED = 100_000;

    public enum Mode {
        LEGACY, COMPLETE;

        String stored() {
            return name().toLowerCase();
        }

        static Mode of(String stored) {
            return valueOf(stored.toUpperCase());
        }
    }

    private final CallWriteModeStore store;
    private final boolean enforced;
    private final Map<String, Mode> decided = new ConcurrentHashMap<>();

    public CallWriteModes(CallWriteModeStore store,
            @ConfigProperty(name = "tracing.calls.complete-mode", defaultValue = "auto") String completeMode) {
        this.store = store;
        this.enforced = switch (completeMode) {
            case "auto" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("tracing.calls.complete-mode is auto or off, got '" + completeMode + "'");
        };
    }

    /** Before a v1 write: refuses when one of the projects is in complete mode; decides 'legacy' for new ones. */
    public Uni<Void> requireLegacyWrites(Collection<String> projectIds) {
        return modes(projectIds, Mode.LEGACY).invoke(modes -> modes.forEach((project, mode) -> {
            if (mode == Mode.COMPLETE) {
                throw new CallsCompleteModeRequired(project);
            }
        })).replaceWithVoid();
    }

    /** Before a v2 write: a project without calls is now in complete mode. */
    public Uni<Void> noteCompleteWrites(Collection<String> projectIds) {
        return modes(projectIds, Mode.COMPLETE).replaceWithVoid();
    }

    private Uni<Map<String, Mode>> modes(Collection<String> projectIds, Mode firstWriterMode) {
        Map<String, Mode> modes = new HashMap<>();
        if (!enforced) {
            return Uni.createFrom().item(modes);
        }
        List<String> unknown = new ArrayList<>();
        for (String project : new LinkedHashSet<>(projectIds)) {
            Mode mode = decided.get(project);
            if (mode == null) {
                unknown.add(project);
            } else {
                modes.put(project, mode);
            }
        }
        if (unknown.isEmpty()) {
            return Uni.createFrom().item(modes);
        }
        return store.decide(unknown, firstWriterMode).map(found -> {
            if (decided.size() + found.size() > MAX_REMEMBERED) {
                decided.clear();
            }
            decided.putAll(found);
            modes.putAll(found);
            return modes;
        });
    }
}
