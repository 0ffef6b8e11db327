package org.llmplatform.support.body;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A named set of {@link BodyChecks.Limit}s, defined once on a holder class and applied by any number of
 * {@link BodyChecks} under a JSON prefix ({@link BodyChecks.LimitsAt}): the limits of a started call, say, checked
 * under {@code start} by {@code call/start} and under {@code batch[].req.start} by {@code call/upsert_batch}. Fields
 * are paths relative to the prefix.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface LimitSet {

    BodyChecks.Limit[] value();
}
