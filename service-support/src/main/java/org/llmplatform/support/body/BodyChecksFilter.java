package org.llmplatform.support.body;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.error.ErrorResponses;

/**
 * Runs the {@link BodyChecks} of a resource method on its body after the body arrived and after the caller was
 * authenticated, but before the body is deserialized or validated: access first, then lengths.
 */
public class BodyChecksFilter {

    private static final Map<Method, BodyScan> SCANS = new ConcurrentHashMap<>();

    private final CurrentPrincipal caller;
    private final ErrorResponses errors;

    public BodyChecksFilter(CurrentPrincipal caller, ErrorResponses errors) {
        this.caller = caller;
        this.errors = errors;
    }

    @BodyChecks
    @ServerRequestFilter(readBody = true, priority = Priorities.USER + 100)
    public Response check(ContainerRequestContext request, ResourceInfo resource) {
        Method method = resource.getResourceMethod();
        BodyScan scan = SCANS.computeIfAbsent(method, BodyChecksFilter::compile);
        try {
            for (String parameter : scan.entityParameters()) {
                String entity = request.getUriInfo().getPathParameters().getFirst(parameter);
                entity = entity != null ? entity : request.getUriInfo().getQueryParameters().getFirst(parameter);
                if (entity != null && !entity.isEmpty()) {
                    CurrentPrincipal.requireEntity(caller.get(), entity);
                }
            }
            for (String header : scan.projectHeaders()) {
                requireProject(request.getHeaderString(header));
            }
            if (scan.readsBody()) {
                BodyScan.Found found = scanAndRewind(scan, request);
                requireAccess(found);
                if (found.tooLong() != null) {
                    throw FieldLimits.tooLong(found.tooLongMax(), found.tooLong());
                }
            }
        } catch (ApiException refused) {
            return errors.toResponse(refused);
        }
        return null;
    }

    private void requireAccess(BodyScan.Found found) {
        Principal principal = caller.get();
        for (String projectId : found.projectIds()) {
            requireProject(projectId);
        }
        for (String entity : found.entities()) {
            CurrentPrincipal.requireEntity(principal, entity);
        }
    }

    /** A project the caller may not use is refused; a malformed one is left to the resource, which names the flaw. */
    private void requireProject(String projectId) {
        if (projectId == null || projectId.isBlank()) {
            return;
        }
        ProjectId parsed;
        try {
            parsed = ProjectId.parse(projectId.strip());
        } catch (ApiException malformed) {
            return;
        }
        CurrentPrincipal.requireEntity(caller.get(), parsed.entity());
    }

    /**
     * Scans the body and puts the stream back where it was, so that the resource reads it as if nothing had. Quarkus REST
     * gives a filter that reads the body a {@code ByteArrayInputStream} over it, which rewinds ({@code mark}): the scan
     * copies nothing (a copy of every body was a fifth of the tracing-service's allocation on ingest).
     */
    private static BodyScan.Found scanAndRewind(BodyScan scan, ContainerRequestContext request) {
        try {
            InputStream body = request.getEntityStream();
            if (body == null || !body.markSupported()) {
                body = new ByteArrayInputStream(body == null ? new byte[0] : body.readAllBytes());
                request.setEntityStream(body);
            }
            body.mark(Integer.MAX_VALUE);
            BodyScan.Found found = scan.scan(body);
            body.reset();
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException("the request body could not be read", e);
        }
    }

    private static BodyScan compile(Method method) {
        BodyChecks checks = method.getAnnotation(BodyChecks.class);
        return new BodyScan(checks != null ? checks : method.getDeclaringClass().getAnnotation(BodyChecks.class));
    }
}
