package org.llmplatform.inference.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.llmplatform.inference.limits.LimitUse;
import org.llmplatform.inference.limits.ProjectPolicy;
import org.llmplatform.inference.limits.RateLimits;
import org.llmplatform.inference.usage.RefusedRequests;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.ids.Uuids;

/**
 * The one way into every endpoint, over either transport: the project the request is billed to (a project the key may
 * not use is a 403 that no project's usage counts), then the endpoint's parsing, the call id header, the project's
 * rules (models), its limits and budgets ({@link RateLimits}, counted across replicas) and the response's request id,
 * then the endpoint's serving, whose answer carries the limits' {@code x-ratelimit-*} headers. From the moment the
 * project is known every refusal, here or later ({@link #refusedLater}), publishes a {@code refused} usage record.
 */
@Singleton
public class Admission {

    private static final Pattern WEAVE_CALL_ID = Pattern.compile("[0-9A-Za-z._-]{1,128}");

    private final ProjectAttribution attribution;
    private final ProjectPolicy policy;
    private final RateLimits limits;
    private final RefusedRequests refused;

    public Admission(ProjectAttribution attribution, ProjectPolicy policy, RateLimits limits, RefusedRequests refused) {
        this.attribution = attribution;
        this.policy = policy;
        this.limits = limits;
        this.refused = refused;
    }

    /** The caller of a request that Quarkus authenticated (a JAX-RS resource's). */
    public Principal currentCaller() {
        return attribution.principal();
    }

    /**
     * Admits {@code body} from {@code caller} and answers it with {@code serving}, or fails with the refusal the client
     * gets (thrown at once for what needs no database: the project, the body, the headers, the models). {@code parse}
     * turns the body into the endpoint's request (throwing its validation errors), {@code model} names the model it
     * asks for. What {@code serving} throws is recorded as refused; what its answer fails with later is its own to
     * record, since it alone knows whether a model had started.
     */
    public <R, A extends RateLimitedAnswer<A>> Uni<A> serve(Principal caller, CallHeaders headers, JsonNode body,
            Function<JsonNode, R> parse, Function<R, String> model, Function<AdmittedCall<R>, Uni<A>> serving) {
        AdmittedCall<R> admitted = admit(caller, headers, body, parse, model);
        return limits.admit(admitted.project().toString(), caller.apiKeyId())
                .onFailure().invoke(refusal -> refusedLater(admitted, refusal))
                .flatMap(use -> serveAdmitted(admitted.countedAgainst(use), serving)
                        .map(answer -> answer.withRateLimitHeaders(use.headers())));
    }

    /**
     * Serves a call admitted already: one that another endpoint translated into this one's request after admitting
     * its own (the Responses API's chat completion), so that it is admitted and counted once.
     */
    public <R, A> Uni<A> serveAdmitted(AdmittedCall<R> call, Function<AdmittedCall<R>, Uni<A>> serving) {
        try {
            return serving.apply(call);
        } catch (RuntimeException refusal) {
            refusedLater(call, refusal);
            throw refusal;
        }
    }

    private <R> AdmittedCall<R> admit(Principal caller, CallHeaders headers, JsonNode body,
            Function<JsonNode, R> parse, Function<R, String> model) {
        ProjectId project = attribution.project(caller, headers.compatProject(), headers.openAiProject());
        Instant arrived = Instant.now();
        try {
            R request = parse.apply(body);
            String weaveCallId = weaveCallId(headers.weaveCallId());
            policy.admit(project.toString(), model.apply(request));
            return new AdmittedCall<>(request, body, project, caller, headers.requestId(),
                    responseRequestId(headers.requestId()), weaveCallId, arrived, LimitUse.NONE);
        } catch (RuntimeException refusal) {
            refused.record(body, project, caller.userName(), refusal, arrived);
            throw refusal;
        }
    }

    /** Records a refusal that came after admission, before any model ran the request (an unknown model, a limit). */
    public void refusedLater(AdmittedCall<?> call, Throwable refusal) {
        refused.record(call.body(), call.project(), call.user(), refusal, call.arrived());
    }

    /** The id of the call that tracks the request, when a caller names one; the usage record carries it. */
    private static String weaveCallId(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        if (!WEAVE_CALL_ID.matcher(header).matches()) {
            throw ApiException.invalidField("value_error", List.of("header", CallHeaders.WEAVE_CALL_ID),
                    "A call id has 1 to 128 letters, digits, '.', '_' or '-'", header);
        }
        return header;
    }

    /** The {@code X-Request-Id} of the response: the caller's own, else a new one. */
    private static String responseRequestId(String requestIdHeader) {
        return requestIdHeader != null && !requestIdHeader.isBlank() ? requestIdHeader
                : Uuids.v7().toString().replace("-", "");
    }
}
