package org.llmplatform.inference.limits;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * One replica's share of one counter (a subject's window): the requests and tokens it reserved in the database and
 * has not used yet, and what it used and has not written yet. Requests are taken from the share as they are admitted,
 * tokens charged to it as requests end, both in memory; the database is asked for more only when the share runs out
 * (a {@link LimitsStore.Settlement}), so a request under a limit costs no statement.
 */
final class Allowance {

    /**
     * A replica reserves a 64th of what is left of a limit at a time (at least 1), so that while much is left it asks
     * rarely, and the shares other replicas hold unused when a limit is reached stay small: near a limit, and under any
     * limit below 128, every request is counted in the database.
     */
    private static final long SHARE_OF_WHAT_IS_LEFT = 64;

    /** Whether a request may be admitted against this counter. */
    enum Verdict { TAKEN, SHORT, REQUESTS_RUN_OUT, TOKENS_RUN_OUT }

    /** A settlement this allowance started, or the one in flight it must wait for. */
    record Turn(LimitsStore.Settlement settlement, CompletableFuture<Void> pending) {
    }

    private final LimitsStore.Counter counter;
    private long requestsLeft;
    /** Negative when requests that ended charged more tokens than were reserved: a debt paid at the next settlement. */
    private long tokensLeft;
    private long grantedRequests;
    private long grantedTokens;
    private long unwrittenRequests;
    private long unwrittenTokens;
    /** The limit at which the database had no requests (tokens) left to grant; the window is spent at that limit. */
    private Long requestsRunOutAt;
    private Long tokensRunOutAt;
    private boolean stored;
    private CompletableFuture<Void> settling;

    Allowance(LimitsStore.Counter counter) {
        this.counter = counter;
    }

    LimitsStore.Counter counter() {
        return counter;
    }

    /** Takes one request (where {@code requestLimit} applies) if the share allows it under both limits (null: none). */
    synchronized Verdict take(Long requestLimit, Long tokenLimit) {
        boolean requestsShort = requestLimit != null && requestsLeft <= 0;
        boolean tokensShort = tokenLimit != null && tokensLeft <= 0;
        if (requestsShort && Objects.equals(requestsRunOutAt, requestLimit)) {
            return Verdict.REQUESTS_RUN_OUT;
        }
        if (tokensShort && Objects.equals(tokensRunOutAt, tokenLimit)) {
            return Verdict.TOKENS_RUN_OUT;
        }
        if (requestsShort || tokensShort) {
            return Verdict.SHORT;
        }
        if (requestLimit != null) {
            requestsLeft--;
        }
        unwrittenRequests++;
        return Verdict.TAKEN;
    }

    /** Undoes a {@link #take} of a request that another counter refused. */
    synchronized void giveBack(Long requestLimit) {
        if (requestLimit != null) {
            requestsLeft++;
        }
        unwrittenRequests--;
    }

    synchronized void charge(long tokens) {
        tokensLeft -= tokens;
        unwrittenTokens += tokens;
    }

    /** The requests of the window used as far as this replica knows: all replicas' reservations, less its unused share. */
    synchronized long requestsUsed() {
        return grantedRequests - requestsLeft;
    }

    synchronized long tokensUsed() {
        return grantedTokens - tokensLeft;
    }

    synchronized boolean stored() {
        return stored;
    }

    /** Whether a settlement would write anything: use not written yet, or a debt. */
    synchronized boolean dirty() {
        return unwrittenRequests != 0 || unwrittenTokens != 0 || tokensLeft < 0;
    }

    /**
     * Starts a settlement of what this replica used, paying its token debt and, when {@code reserve}, asking for more of
     * each limit whose share ran out; or, when one is in flight, answers that one to wait for.
     */
    synchronized Turn beginSettling(Long requestLimit, Long tokenLimit, boolean reserve) {
        if (settling != null) {
            return new Turn(null, settling);
        }
        long debt = Math.max(0, -tokensLeft);
        long requestWant = reserve && requestLimit != null && requestsLeft <= 0 ? share(requestLimit, grantedRequests) : 0;
        long tokenWant = reserve && tokenLimit != null && tokensLeft <= 0 ? share(tokenLimit, grantedTokens + debt) : 0;
        LimitsStore.Settlement settlement = new LimitsStore.Settlement(counter, unwrittenRequests, unwrittenTokens,
                requestWant, requestLimit == null ? 0 : requestLimit, debt, tokenWant, tokenLimit == null ? 0 : tokenLimit);
        unwrittenRequests = 0;
        unwrittenTokens = 0;
        settling = new CompletableFuture<>();
        return new Turn(settlement, settling);
    }

    /** Applies what the database answered to a settlement this allowance began. */
    synchronized CompletableFuture<Void> settled(LimitsStore.Settlement settlement, LimitsStore.Settled settled) {
        stored = true;
        requestsLeft += settled.requestGrant();
        tokensLeft += settlement.tokenDebt() + settled.tokenGrant();
        grantedRequests = settled.grantedRequests();
        grantedTokens = settled.grantedTokens();
        if (settlement.requestWant() > 0 && settled.requestGrant() == 0) {
            requestsRunOutAt = settlement.requestLimit();
        }
        if (settlement.tokenWant() > 0 && settled.tokenGrant() == 0) {
            tokensRunOutAt = settlement.tokenLimit();
        }
        return endSettling();
    }

    /** Takes back what a settlement that failed was to write, so that the next one writes it. */
    synchronized CompletableFuture<Void> failed(LimitsStore.Settlement settlement) {
        unwrittenRequests += settlement.usedRequests();
        unwrittenTokens += settlement.usedTokens();
        return endSettling();
    }

    private CompletableFuture<Void> endSettling() {
        CompletableFuture<Void> ended = settling;
        settling = null;
        return ended;
    }

    private static long share(long limit, long granted) {
        return Math.max(1, (limit - granted) / SHARE_OF_WHAT_IS_LEFT);
    }
}
