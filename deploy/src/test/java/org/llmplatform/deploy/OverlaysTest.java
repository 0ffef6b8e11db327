package org.llmplatform.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.llmplatform.deploy.Manifests.ofKind;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OverlaysTest {

    @ParameterizedTest
    @ValueSource(strings = {"jvm", "native", "local"})
    void anOverlayBuildsOnTheBaseAndPinsEveryServiceImage(String overlay) {
        Path directory = Manifests.DEPLOY.resolve(overlay);
        JsonNode kustomization = Manifests.kustomization(directory);
        for (JsonNode resource : kustomization.path("resources")) {
            assertTrue(Files.exists(directory.resolve(resource.asText())), overlay + " lists the missing " + resource.asText());
        }
        Map<String, String> tags = new HashMap<>();
        kustomization.path("images").forEach(image -> tags.put(image.path("name").asText(), image.path("newTag").asText()));
        Set<String> baseImages = ofKind(Manifests.base(), "Deployment", Deployment.class).stream()
                .map(deployment -> deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                .map(image -> image.substring(0, image.lastIndexOf(':')))
                .collect(Collectors.toSet());
        assertEquals(baseImages, tags.keySet(), overlay + " must set the tag of every service image");
        tags.forEach((image, tag) -> assertTrue(ResourceChecks.isPinned(image + ":" + tag), overlay + ": " + image + ":" + tag));
        tags.values().forEach(tag -> assertTrue(tag.endsWith(overlay.equals("native") ? "-native" : "-jvm"), overlay + ": " + tag));
    }

    /** Runs where kubectl is installed (it renders patches and generators exactly as a cluster operator would). */
    @ParameterizedTest
    @ValueSource(strings = {"jvm", "native", "local"})
    void aRenderedOverlayPassesEveryReviewCheck(String overlay) {
        Optional<List<ObjectNode>> rendered = Manifests.rendered(overlay);
        assumeTrue(rendered.isPresent(), "kubectl is not installed");
        assertEquals(List.of(), ResourceChecks.problemsIn(rendered.get()));
        Map<String, Quantity> limits = ofKind(rendered.get(), "Deployment", Deployment.class).stream().collect(Collectors.toMap(
                deployment -> deployment.getMetadata().getName(),
                deployment -> deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().get("memory")));
        long bound = overlay.equals("native") ? 256L << 20 : 1L << 30;
        limits.forEach((service, limit) -> assertTrue(Quantity.getAmountInBytes(limit).longValue() <= bound, overlay + " " + service + " " + limit));
        if (overlay.equals("local")) {
            ofKind(rendered.get(), "KafkaTopic").forEach(topic -> assertEquals(1, topic.path("spec").path("replicas").asInt()));
            assertEquals(1, ofKind(rendered.get(), "Secret").stream()
                    .filter(secret -> secret.path("metadata").path("name").asText().equals("platform-auth")).count());
        }
    }
}
