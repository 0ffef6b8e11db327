package org.llmplatform.inference.checkpoints;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code wandb-artifact:///entity/project/model_name:stepN}, or without {@code :stepN} (a null step) for
 * the latest step.
 */
public record CheckpointName(String entity, String project, String modelName, Integer step) {

    public static final String SCHEME = "wandb-artifact:///";
    private static final Pattern NAME = Pattern.compile(
            Pattern.quote(SCHEME) + "([^/:]+)/([^/:]+)/([^/:]+)(?::step(0|[1-9][0-9]{0,8}))?");

    private static final Pattern COLLAPSED_SLASHES = Pattern.compile("^wandb-artifact:/{1,3}");

    public static boolean looksLikeOne(String model) {
        return model != null && model.startsWith(SCHEME);
    }

    /** A name that came through a URL path, where {@code ///} may have been collapsed, in its full form. */
    public static String fromPath(String id) {
        return COLLAPSED_SLASHES.matcher(id).replaceFirst(SCHEME);
    }

    public static Optional<CheckpointName> parse(String model) {
        Matcher matcher = model == null ? null : NAME.matcher(model);
        if (matcher == null || !matcher.matches()) {
            return Optional.empty();
        }
        Integer step = matcher.group(4) == null ? null : Integer.valueOf(matcher.group(4));
        return Optional.of(new CheckpointName(matcher.group(1), matcher.group(2), matcher.group(3), step));
    }

    public CheckpointName bare() {
        return new CheckpointName(entity, project, modelName, null);
    }

    @Override
    public String toString() {
        return SCHEME + entity + "/" + project + "/" + modelName + (step == null ? "" : ":step" + step);
    }
}
