package org.llmplatform.inference.service;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random (version 4) UUIDs for request and completion ids. They must be unique, not unguessable, so
 * they come from {@link ThreadLocalRandom}: {@link UUID#randomUUID()}'s SecureRandom showed up in the
 * request path's profile.
 */
public final class RequestIds {

    private RequestIds() {
    }

    public static UUID random() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong() & ~0xF000L | 0x4000L;
        long low = random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new UUID(high, low);
    }
}
