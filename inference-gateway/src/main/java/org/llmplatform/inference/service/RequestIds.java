package org.llmplatform.inference.service;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Request and completion ids: version 7 UUIDs (the time in milliseconds, then random bits), so ids made later
 * sort later and the tables keyed by them (the usage records' dedup table, the tracing-service's calls) grow
 * at one end instead of on a random page per request. They must be unique, not unguessable, so the random
 * bits come from {@link ThreadLocalRandom}: {@link UUID#randomUUID()}'s SecureRandom showed up in the request
 * path's profile.
 */
public final class RequestIds {

    private RequestIds() {
    }

    public static UUID next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = System.currentTimeMillis() << 16 | 0x7000L | random.nextInt() & 0x0FFFL;
        long low = random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new UUID(high, low);
    }
}
