package org.llmplatform.inference.admission;

import java.util.Map;

/**
 * An endpoint's answer, which {@link Admission#serve} gives the {@code x-ratelimit-*} headers of the limits its request
 * was counted against (an interface here so that admission depends on no endpoint's answer type).
 */
public interface RateLimitedAnswer<A extends RateLimitedAnswer<A>> {

    /** This answer with {@code headers} (empty: this answer unchanged). */
    A withRateLimitHeaders(Map<String, String> headers);
}
