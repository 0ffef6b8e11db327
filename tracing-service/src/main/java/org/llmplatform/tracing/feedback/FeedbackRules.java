package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.llmplatform.support.error.ApiException;

/** The payload and ref rules of the reserved feedback types (docs/tracing-service.md#feedback); returns the payload to store. */
final class FeedbackRules {

    static final String REACTION = "wandb.reaction.1";
    static final String NOTE = "wandb.note.1";
    static final String ANNOTATION_PREFIX = "wandb.annotation.";
    static final String RUNNABLE_PREFIX = "wandb.runnable.";
    static final String AGENT_MONITOR = "wandb.agent_monitor";
    static final String AGENT_USER_FEEDBACK = "wandb.agent_user_feedback";
    static final int MAX_NOTE_LENGTH = 1024;
    static final long MAX_PAYLOAD_LENGTH = 1 << 20;

    private static final Pattern ANY_REF = Pattern.compile("weave:///[^/]+/[^/]+/(object|op|table|call)/.+");
    private static final Pattern OBJECT_OR_OP_REF = Pattern.compile("weave:///[^/]+/[^/]+/(object|op)/([^/:]+):[^/:]+(/.*)?");
    private static final Pattern CALL_REF = Pattern.compile("weave:///[^/]+/[^/]+/call/[^/]+");

    /** {@code scorer}: the request's scorer and span fields with their defaults ({@link ScorerFields#checked}). */
    static ObjectNode check(NewFeedback feedback, ScorerFields scorer) {
        if (!ANY_REF.matcher(feedback.weaveRef()).matches()) {
            throw ApiException.badRequest("Invalid weave_ref: " + feedback.weaveRef());
        }
        String type = feedback.feedbackType();
        boolean annotation = type.startsWith(ANNOTATION_PREFIX);
        boolean runnable = type.startsWith(RUNNABLE_PREFIX);
        boolean agentMonitor = type.equals(AGENT_MONITOR);
        if (!annotation && feedback.annotationRef() != null) {
            throw ApiException.badRequest("annotation_ref is not allowed for non-annotation feedback");
        }
        if (agentMonitor) {
            checkAgentMonitor(feedback);
        } else if (!runnable) {
            notAllowedForNonRunnable("runnable_ref", feedback.runnableRef());
            notAllowedForNonRunnable("call_ref", feedback.callRef());
            notAllowedForNonRunnable("trigger_ref", feedback.triggerRef());
        }
        checkScorerFields(scorer, runnable || agentMonitor || type.equals(AGENT_USER_FEEDBACK),
                type.equals(AGENT_USER_FEEDBACK));
        ObjectNode payload = feedback.payload();
        if (type.equals(REACTION)) {
            payload = Reactions.process(payload);
        } else if (type.equals(NOTE)) {
            checkNote(payload);
        } else if (annotation) {
            checkAnnotation(feedback, type.substring(ANNOTATION_PREFIX.length()));
        } else if (runnable) {
            checkRunnable(feedback, type.substring(RUNNABLE_PREFIX.length()));
        }
        if (PythonJsonLength.of(payload) > MAX_PAYLOAD_LENGTH) {
            throw ApiException.badRequest("Feedback payload too large");
        }
        return payload;
    }

    /** The reference's rule: the scorer columns only on scorer feedback, and a user's agent feedback is its tag. */
    private static void checkScorerFields(ScorerFields scorer, boolean allowed, boolean agentUserFeedback) {
        if (scorer.scorerSet() && !allowed) {
            throw ApiException.badRequest("scorer_tags, scorer_tag_reasons, scorer_tag_confidences, scorer_ratings, "
                    + "scorer_rating_reasons, and scorer_rating_confidences are only allowed on wandb.agent_monitor, "
                    + "wandb.agent_user_feedback, or wandb.runnable feedback");
        }
        if (agentUserFeedback && scorer.scorerTags().isEmpty()) {
            throw ApiException.badRequest("scorer_tags is required for agent user feedback");
        }
    }

    /** A monitor's score names its scorer, the scored call and the monitor; refs as the runnable ones. */
    private static void checkAgentMonitor(NewFeedback feedback) {
        if (feedback.runnableRef() == null || feedback.runnableRef().isEmpty()) {
            throw ApiException.badRequest("runnable_ref is required for agent monitor feedback");
        }
        if (feedback.callRef() == null) {
            throw ApiException.badRequest("call_ref is required for agent monitor feedback");
        }
        if (feedback.triggerRef() == null) {
            throw ApiException.badRequest("trigger_ref is required for agent monitor feedback");
        }
        if (!OBJECT_OR_OP_REF.matcher(feedback.runnableRef()).matches()) {
            throw ApiException.badRequest("Invalid runnable_ref: " + feedback.runnableRef());
        }
        checkCallAndTriggerRefs(feedback);
    }

    private static void checkNote(ObjectNode payload) {
        if (!payload.path("note").isTextual()) {
            throw ApiException.badRequest("A note's payload must have a string 'note'");
        }
        int length = payload.get("note").textValue().codePointCount(0, payload.get("note").textValue().length());
        if (length < 1 || length > MAX_NOTE_LENGTH) {
            throw ApiException.badRequest("Note must be between 1 and " + MAX_NOTE_LENGTH + " characters");
        }
    }

    private static void checkAnnotation(NewFeedback feedback, String name) {
        if (feedback.annotationRef() == null) {
            throw ApiException.badRequest("annotation_ref is required for annotation feedback");
        }
        requireNamedRef("annotation_ref", feedback.annotationRef(), name, false);
        if (!feedback.payload().has("value")) {
            throw ApiException.badRequest("An annotation's payload must have a 'value'");
        }
    }

    private static void checkRunnable(NewFeedback feedback, String name) {
        if (feedback.runnableRef() == null) {
            throw ApiException.badRequest("runnable_ref is required for runnable feedback");
        }
        boolean opRef = requireNamedRef("runnable_ref", feedback.runnableRef(), name, true);
        if (!feedback.payload().has("output")) {
            throw ApiException.badRequest("A runnable's payload must have an 'output'");
        }
        if (opRef && feedback.callRef() == null) {
            throw ApiException.badRequest("call_ref is required for runnable feedback from an op");
        }
        checkCallAndTriggerRefs(feedback);
    }

    private static void checkCallAndTriggerRefs(NewFeedback feedback) {
        if (feedback.callRef() != null && !CALL_REF.matcher(feedback.callRef()).matches()) {
            throw ApiException.badRequest("Invalid call_ref: " + feedback.callRef());
        }
        if (feedback.triggerRef() != null && !OBJECT_OR_OP_REF.matcher(feedback.triggerRef()).matches()) {
            throw ApiException.badRequest("Invalid trigger_ref: " + feedback.triggerRef());
        }
    }

    /** Checks an object (or, where allowed, op) ref named {@code name}; true for an op ref. */
    private static boolean requireNamedRef(String field, String ref, String name, boolean opAllowed) {
        Matcher matcher = OBJECT_OR_OP_REF.matcher(ref);
        if (!matcher.matches() || (!opAllowed && matcher.group(1).equals("op"))) {
            throw ApiException.badRequest("Invalid " + field + ": " + ref);
        }
        if (!matcher.group(2).equals(name)) {
            throw ApiException.badRequest(field + " must name '" + name + "', the name in the feedback type");
        }
        return matcher.group(1).equals("op");
    }

    private static void notAllowedForNonRunnable(String field, String value) {
        if (value != null) {
            throw ApiException.badRequest(field + " is not allowed for non-runnable feedback");
        }
    }

    private FeedbackRules() {
    }
}
