package org.llmplatform.inference.upstream;

import io.vertx.ext.web.RoutingContext;

/**
 * When a request reached the gateway, stamped by the relay routes ({@code chat/RelayRoutes}) before it reads the body or authenticates,
 * so the overhead it reports (LiteLLM's "overhead duration": time spent in the gateway itself, the upstream's time
 * excluded) covers everything we do to a request.
 */
public final class GatewayOverhead {

    /** Response header of upstream-served completions: our own time in milliseconds before the answer left. */
    public static final String HEADER = "X-Gateway-Overhead-Duration-Ms";

    private static final String ARRIVED = "gateway.arrived-nanos";

    public static void stamp(RoutingContext context) {
        context.put(ARRIVED, System.nanoTime());
    }

    public static long arrivedNanos(RoutingContext context) {
        Long arrived = context.get(ARRIVED);
        return arrived != null ? arrived : System.nanoTime();
    }

    /** Milliseconds with three decimals, by hand: String.format was the costliest thing on the relay path. */
    public static String millis(long nanos) {
        long micros = Math.max(0, (nanos + 500) / 1000);
        long fraction = micros % 1000;
        return (micros / 1000) + (fraction < 10 ? ".00" : fraction < 100 ? ".0" : ".") + fraction;
    }

    private GatewayOverhead() {
    }
}
