package org.llmplatform.tracing.common;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.UUID;
import org.apache.commons.codec.digest.DigestUtils;

/** Server-made call and trace ids: UUIDv7 like the reference, so ids made later sort later. */
public final class Uuids {

    private static final SecureRandom RANDOM = new SecureRandom();

    public static UUID v7() {
        return v7(System.currentTimeMillis(), RANDOM.nextInt(), RANDOM.nextLong());
    }

    /**
     * The UUIDv7 of {@code at} whose random bits are a digest of {@code name}: the same name and time give the
     * same id, and ids of later times still sort later (so that indexes on them grow at one end).
     */
    public static UUID v7(Instant at, String name) {
        ByteBuffer digest = ByteBuffer.wrap(DigestUtils.sha256(name));
        return v7(at.toEpochMilli(), digest.getInt(), digest.getLong());
    }

    private static UUID v7(long millis, int randomA, long randomB) {
        long mostSignificant = (millis << 16) | 0x7000L | (randomA & 0x0fffL);
        long leastSignificant = (randomB & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(mostSignificant, leastSignificant);
    }

    private Uuids() {
    }
}
