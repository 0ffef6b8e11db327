package org.llmplatform.support.ids;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.commons.codec.digest.DigestUtils;

/**
 * Server-made ids (calls, traces, requests, completions): version 7 UUIDs like the reference's, the time in
 * milliseconds then random bits, so ids made later sort later and the tables keyed by them grow at one end
 * instead of on a random page per row. They must be unique, not unguessable, so the random bits come from
 * {@link ThreadLocalRandom}: {@link UUID#randomUUID()}'s SecureRandom showed up in the gateway's request path.
 */
public final class Uuids {

    public static UUID v7() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return v7(System.currentTimeMillis(), random.nextInt(), random.nextLong());
    }

    /**
     * The UUIDv7 of {@code at} whose random bits are a digest of {@code name}: the same name and time give the
     * same id, and ids of later times still sort later.
     */
    public static UUID v7(Instant at, String name) {
        ByteBuffer digest = ByteBuffer.wrap(DigestUtils.sha256(name));
        return v7(at.toEpochMilli(), digest.getInt(), digest.getLong());
    }

    private static UUID v7(long millis, int randomA, long randomB) {
        long mostSignificant = millis << 16 | 0x7000L | randomA & 0x0FFFL;
        long leastSignificant = randomB & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new UUID(mostSignificant, leastSignificant);
    }

    private Uuids() {
    }
}
