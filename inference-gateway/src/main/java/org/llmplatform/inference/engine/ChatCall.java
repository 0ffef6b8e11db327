package org.llmplatform.inference.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.llmplatform.inference.chat.ChatRequest;
import org.llmplatform.inference.limits.ConcurrencyLimiter;
import org.llmplatform.inference.limits.LimitUse;
import org.llmplatform.support.auth.ProjectId;

/**
 * One accepted chat completion: its ids (and the call that tracks it, if its caller named one), its plan,
 * whom it is billed to, the concurrency slot it holds, and the completion tokens of each choice so far (for
 * the usage record, also on cancellation), with the request as it came and the text generated so far (for the
 * record's request and answer), and the limits its tokens are charged to.
 */
public record ChatCall(
        String id,
        String requestId,
        String weaveCallId,
        long created,
        ChatRequest request,
        JsonNode body,
        CompletionPlan plan,
        ProjectId project,
        String user,
        Instant started,
        ConcurrencyLimiter.Permit permit,
        AtomicIntegerArray completionTokens,
        ChoiceTexts texts,
        LimitUse limits) {

    public long totalCompletionTokens() {
        long total = 0;
        for (int i = 0; i < completionTokens.length(); i++) {
            total += completionTokens.get(i);
        }
        return total;
    }

    public String modelId() {
        return plan.model().id();
    }
}
