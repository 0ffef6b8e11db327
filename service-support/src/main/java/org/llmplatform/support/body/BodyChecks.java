package org.llmplatform.support.body;

import jakarta.ws.rs.NameBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What {@link BodyChecksFilter} checks in a JSON request body before the body is turned into objects, so that
 * the access check comes before any validation and an over-long id never reaches a query. Fields are named by
 * dotted paths from the body's root, {@code []} standing for every element of an array:
 * {@code "batch[].req.start.project_id"}.
 *
 * <p>Order: the caller's access to every project and entity named is checked first (a 403 however wrong the
 * rest of the body is); then the length limits (a 422 naming the field); then the resource's own parsing and
 * validation, as before. A body that is no JSON, or a project id that is not {@code entity/project}, is left
 * to that parsing: the projects named before the flaw are still checked.
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface BodyChecks {

    /** Path or query parameters holding an entity name the caller must have access to (when sent). */
    String[] entityParameters() default {};

    /** Request headers that, when sent, hold an {@code entity/project} id the caller must have access to. */
    String[] projectHeaders() default {};

    /** Fields holding an {@code entity/project} id the caller must have access to. */
    String[] projectIds() default {};

    /** Fields holding a {@code weave:///entity/project/...} ref, whose project the caller must have access to. */
    String[] refs() default {};

    /** Fields holding an entity name the caller must have access to. */
    String[] entities() default {};

    /** Text fields and the most characters each may hold (see {@link FieldLimits}). */
    Limit[] limits() default {};

    /** Named sets of limits, each applied under its prefix, beside {@link #limits()}. */
    LimitsAt[] limitSets() default {};

    @Retention(RetentionPolicy.RUNTIME)
    @Target({})
    @interface Limit {

        String field();

        int max();
    }

    /** The limits of a class annotated {@link LimitSet}, under {@code under} ({@code "start"}, {@code "batch[]"}; empty: the root). */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({})
    @interface LimitsAt {

        Class<?> set();

        String under() default "";
    }
}
