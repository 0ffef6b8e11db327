package org.llmplatform.tracing.calls;

/**
 * A v1 write to a project in complete mode: 400 {@code {"reason", "error_code": "CALLS_COMPLETE_MODE_REQUIRED"}},
 * the reference's {@code CallsCompleteModeRequired} and its message.
 */
public class CallsCompleteModeRequired extends RuntimeException {

    public static final String ERROR_CODE = "CALLS_COMPLETE_MODE_REQUIRED";

    /** The oldest Weave SDKs that switch to calls/complete on this answer (the reference's own figure). */
    private static final String MIN_SDK_VERSION = "0.52.26";

    public CallsCompleteModeRequired(String projectId) {
        super("The project '" + projectId + "' has been created in the more performant 'complete' mode. "
                + "Please upgrade your SDK to at least: " + MIN_SDK_VERSION + " to write to this project.");
    }
}
