package org.llmplatform.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Reads the manifests under {@code deploy/}: the base by following its kustomizations, overlays through kubectl when present. */
final class Manifests {

    static final Path DEPLOY = Path.of("").toAbsolutePath();
    static final Path REPOSITORY = DEPLOY.getParent();
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final List<String> OVERLAYS = List.of("jvm", "native", "local");

    /** Every resource the base kustomization lists, recursively; the base uses plain resources only. */
    static List<ObjectNode> base() {
        return resourcesOf(DEPLOY.resolve("base"));
    }

    static JsonNode kustomization(Path directory) {
        return readDocuments(directory.resolve("kustomization.yaml")).get(0);
    }

    private static List<ObjectNode> resourcesOf(Path directory) {
        List<ObjectNode> resources = new ArrayList<>();
        for (JsonNode entry : kustomization(directory).path("resources")) {
            Path resource = directory.resolve(entry.asText()).normalize();
            if (Files.isDirectory(resource)) {
                resources.addAll(resourcesOf(resource));
            } else {
                readDocuments(resource).forEach(document -> resources.add((ObjectNode) document));
            }
        }
        return resources;
    }

    /** The overlay as {@code kubectl kustomize} renders it, when this machine has kubectl. */
    static Optional<List<ObjectNode>> rendered(String overlay) {
        try {
            Process kubectl = new ProcessBuilder("kubectl", "kustomize", DEPLOY.resolve(overlay).toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String output = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!kubectl.waitFor(60, TimeUnit.SECONDS) || kubectl.exitValue() != 0) {
                throw new IllegalStateException("kubectl kustomize " + overlay + " failed");
            }
            List<ObjectNode> resources = new ArrayList<>();
            parse(output).forEach(document -> resources.add((ObjectNode) document));
            return Optional.of(resources);
        } catch (IOException noKubectl) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static List<JsonNode> readDocuments(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static List<JsonNode> parse(String yaml) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (YAMLParser parser = (YAMLParser) YAML.getFactory().createParser(yaml)) {
            for (var iterator = YAML.readValues(parser, JsonNode.class); iterator.hasNext(); ) {
                JsonNode document = iterator.next();
                if (document != null && !document.isNull() && !document.isMissingNode()) {
                    documents.add(document);
                }
            }
        }
        return documents;
    }

    static List<ObjectNode> ofKind(List<ObjectNode> resources, String kind) {
        return resources.stream().filter(resource -> kind.equals(resource.path("kind").asText())).toList();
    }

    static <T> List<T> ofKind(List<ObjectNode> resources, String kind, Class<T> type) {
        return ofKind(resources, kind).stream().map(resource -> {
            try {
                return YAML.treeToValue(resource, type);
            } catch (IOException e) {
                throw new IllegalStateException(kind + " " + resource.path("metadata").path("name").asText()
                        + " does not fit the Kubernetes schema: " + e.getMessage(), e);
            }
        }).toList();
    }

    private Manifests() {
    }
}
