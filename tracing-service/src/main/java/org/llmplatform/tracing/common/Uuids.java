package org.llmplatform.tracing.common;

import java.security.SecureRandom;
import java.util.UUID;

/** Server-made call and trace ids: UUIDv7 like the reference, so ids made later sort later. */
public final class Uuids {

    private static final SecureRandom RANDOM = new SecureRandom();

    public static UUID v7() {
        long millis = System.currentTimeMillis();
        long mostSignificant = (millis << 16) | 0x7000L | (RANDOM.nextInt() & 0x0fffL);
        long leastSignificant = (RANDOM.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(mostSignificant, leastSignificant);
    }

    private Uuids() {
    }
}
