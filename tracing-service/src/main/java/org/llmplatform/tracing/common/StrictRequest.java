package org.llmplatform.tracing.common;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a request envelope that refuses unknown keys (422 naming the key), as the reference's
 * top-level request models do; nested insert payloads stay lenient.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface StrictRequest {
}
