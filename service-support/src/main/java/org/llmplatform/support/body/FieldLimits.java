package org.llmplatform.support.body;

import java.util.ArrayList;
import java.util.List;
import org.llmplatform.support.error.ApiException;

/**
 * The most characters an id, name or digest may hold, checked before any query (docs/tracing-service.md#limits).
 * Each is well above what a reference client sends (a call id is a 36-character UUID or 16/32 hex digits, a
 * digest 43-64 characters, Weave's object and op names at most 128) and low enough that a value always fits a
 * PostgreSQL b-tree index entry (at most 2,704 bytes, and a character takes up to 4 bytes in UTF-8).
 */
public final class FieldLimits {

    /** Call, trace, parent, feedback, job, webhook and other ids. */
    public static final int ID = 128;
    /** Object ids, op names, entity, project, model, webhook and secret names: Weave's {@code MAX_OBJECT_NAME_LENGTH}. */
    public static final int NAME = 128;
    /** An {@code entity/project} id: two names and the slash. */
    public static final int PROJECT_ID = 2 * NAME + 1;
    /** Object, table and file digests (a SHA-256 in base64url or hex). */
    public static final int DIGEST = 128;
    /** A {@code weave:///} ref, or an op name written as one: its names and digest with room for an extra path. */
    public static final int REF = 512;
    /** A call's display name: Weave's {@code MAX_DISPLAY_NAME_LENGTH}. */
    public static final int DISPLAY_NAME = 1024;

    /** Refuses a text value longer than {@code max}, naming it by {@code loc} ({@code "query", "project"}, say). */
    public static void check(String value, int max, Object... loc) {
        if (value != null && value.length() > max) {
            throw tooLong(max, List.of(loc));
        }
    }

    /** The same for every element of a list; {@code loc} names the list. */
    public static void checkEach(List<String> values, int max, Object... loc) {
        if (values == null) {
            return;
        }
        for (int i = 0; i < values.size(); i++) {
            String value = values.get(i);
            if (value != null && value.length() > max) {
                List<Object> at = new ArrayList<>(List.of(loc));
                at.add(i);
                throw tooLong(max, at);
            }
        }
    }

    /** Pydantic's answer to a {@code max_length} breach; the value itself is not echoed. */
    public static ApiException tooLong(int max, List<Object> loc) {
        return ApiException.invalidField("string_too_long", loc, "String should have at most " + max + " characters",
                null);
    }

    private FieldLimits() {
    }
}
