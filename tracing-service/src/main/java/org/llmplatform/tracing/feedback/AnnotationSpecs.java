package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.refs.ParsedRef;
import org.llmplatform.tracing.refs.RefResolver.Root;
import org.llmplatform.tracing.refs.RefResolver;

/**
 * Annotation feedback ({@code wandb.annotation.<name>}) must answer a stored AnnotationSpec: the
 * {@code annotation_ref} is read and the payload's {@code value} checked against its {@code field_schema}.
 */
@ApplicationScoped
public class AnnotationSpecs {

    private final RefResolver refs;
    private final CurrentPrincipal caller;

    public AnnotationSpecs(RefResolver refs, CurrentPrincipal caller) {
        this.refs = refs;
        this.caller = caller;
    }

    /** Fails with a 400 naming the problem when an annotation in {@code feedback} does not fit its spec. */
    public Uni<Void> check(List<NewFeedback> feedback) {
        List<NewFeedback> annotations = new ArrayList<>();
        List<ParsedRef> specRefs = new ArrayList<>();
        for (NewFeedback item : feedback) {
            if (item.feedbackType().startsWith(FeedbackRules.ANNOTATION_PREFIX)) {
                ParsedRef ref = ParsedRef.parse(item.annotationRef())
                        .orElseThrow(() -> ApiException.badRequest("Invalid annotation_ref: " + item.annotationRef()));
                caller.requireProject(ref.projectId());
                annotations.add(item);
                specRefs.add(ref);
            }
        }
        if (annotations.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return refs.roots(specRefs).invoke(roots -> {
            for (int i = 0; i < roots.size(); i++) {
                checkOne(annotations.get(i), roots.get(i));
            }
        }).replaceWithVoid();
    }

    private static void checkOne(NewFeedback annotation, Root root) {
        if (!(root instanceof Root.Found found)) {
            throw ApiException.badRequest("AnnotationSpec not found: " + annotation.annotationRef());
        }
        JsonNode spec = found.value();
        if (!spec.path("_class_name").asText("").equals("AnnotationSpec")) {
            throw ApiException.badRequest("annotation_ref does not name an AnnotationSpec: " + annotation.annotationRef());
        }
        Optional<String> problem = JsonSchemaCheck.problem(spec.get("field_schema"), annotation.payload().get("value"));
        if (problem.isPresent()) {
            throw ApiException.badRequest("Feedback payload does not match the AnnotationSpec: " + problem.get());
        }
    }
}
