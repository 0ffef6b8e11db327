package org.llmplatform.tracing.queues;

import java.util.List;
import org.llmplatform.support.error.ApiException;

/**
 * An annotator's progress on a queue item, as the reference moves it: from nothing to {@code in_progress},
 * {@code completed} or {@code skipped}; from {@code in_progress} to {@code completed} or {@code skipped}; the same
 * state again changes nothing; anything else is a 400 with the reference's message.
 */
final class AnnotationProgress {

    static final String UNSTARTED = "unstarted";
    static final String IN_PROGRESS = "in_progress";
    static final List<String> STATES = List.of(UNSTARTED, IN_PROGRESS, "completed", "skipped");
    private static final List<String> SETTABLE = List.of("completed", IN_PROGRESS, "skipped");

    /** What a request to move to {@code requested} does to an annotator's progress now at {@code current}. */
    enum Step {
        UNCHANGED,
        CREATE,
        UPDATE
    }

    static void checkSettable(String requested) {
        if (!SETTABLE.contains(requested)) {
            throw ApiException.badRequest("Invalid annotation_state '" + requested + "'. Must be one of: "
                    + String.join(", ", SETTABLE));
        }
    }

    /** {@code current} is null when the annotator has no progress on the item. */
    static Step step(String current, String requested) {
        if (requested.equals(current)) {
            return Step.UNCHANGED;
        }
        if (current == null) {
            return Step.CREATE;
        }
        if (requested.equals(IN_PROGRESS)) {
            throw ApiException.badRequest("Cannot transition to 'in_progress' when a record already exists. "
                    + "'in_progress' can only be set on new items.");
        }
        if (!current.equals(IN_PROGRESS) && !current.equals(UNSTARTED)) {
            throw ApiException.badRequest("Invalid state transition from '" + current + "' to '" + requested + "'. "
                    + "Only transitions from 'in_progress' or 'unstarted' are allowed.");
        }
        return Step.UPDATE;
    }

    private AnnotationProgress() {
    }
}
