package org.llmplatform.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.FieldInfo;
import org.jboss.jandex.Index;
import org.jboss.jandex.Indexer;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.MethodParameterInfo;
import org.jboss.jandex.RecordComponentInfo;
import org.jboss.jandex.Type;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every type of ours that crosses JSON or Kafka must be registered for reflection in the native image.
 * Needs the native sources: {@code mvn package -Dnative -Dquarkus.native.sources-only=true}, or beside the JVM jar
 * {@code mvn verify -Dquarkus.native.enabled=true -Dquarkus.native.sources-only=true} (as .ci/run does).
 */
class NativeReflectionTest {

    private static final String OURS = "org.llmplatform.";
    private static final Set<DotName> HTTP_METHODS = Stream.of("GET", "POST", "PUT", "DELETE", "PATCH")
            .map(method -> DotName.createSimple("jakarta.ws.rs." + method)).collect(Collectors.toSet());
    private static final DotName PATH = DotName.createSimple("jakarta.ws.rs.Path");
    private static final List<DotName> MESSAGING = Stream.of("Incoming", "Outgoing")
            .map(name -> DotName.createSimple("org.eclipse.microprofile.reactive.messaging." + name)).toList();
    private static final DotName JSON_DESERIALIZER = DotName.createSimple("io.quarkus.kafka.client.serialization.ObjectMapperDeserializer");
    private static final DotName EVENT_READER = DotName.createSimple("org.llmplatform.support.messaging.EventReader");

    @ParameterizedTest
    @ValueSource(strings = {"tracing-service", "inference-gateway", "training-service", "automation-service"})
    void everyTypeCrossingJsonOrKafkaIsRegisteredForReflection(String service) throws IOException {
        Path nativeSources = Services.module(service).resolve("target/native-sources");
        assumeTrue(Files.isDirectory(nativeSources), "no native sources: build with -Dnative -Dquarkus.native.sources-only=true");
        Set<String> registered = registeredTypes(nativeSources);
        Index index = index(Services.module(service).resolve("target/classes"),
                Manifests.REPOSITORY.resolve("shared-model/target/classes"), Manifests.REPOSITORY.resolve("service-support/target/classes"));
        Set<String> missing = new TreeSet<>(crossingTypes(index));
        missing.removeAll(registered);
        assertEquals(Set.of(), missing, service + ": add @RegisterForReflection to these types");
    }

    private static Set<String> registeredTypes(Path nativeSources) throws IOException {
        Path runner;
        try (Stream<Path> files = Files.list(nativeSources)) {
            runner = files.filter(file -> file.getFileName().toString().endsWith("-runner.jar")).findFirst().orElseThrow();
        }
        Set<String> names = new HashSet<>();
        try (ZipFile jar = new ZipFile(runner.toFile());
             InputStream config = jar.getInputStream(jar.getEntry("META-INF/native-image/reflect-config.json"))) {
            for (JsonNode entry : Manifests.YAML.readTree(config)) {
                names.add(entry.path("name").asText());
            }
        }
        return names;
    }

    private static Index index(Path... classDirectories) throws IOException {
        Indexer indexer = new Indexer();
        for (Path directory : classDirectories) {
            try (Stream<Path> classes = Files.walk(directory)) {
                for (Path file : classes.filter(path -> path.toString().endsWith(".class")).toList()) {
                    try (InputStream in = Files.newInputStream(file)) {
                        indexer.index(in);
                    }
                }
            }
        }
        return indexer.complete();
    }

    /** Bodies and results of resource methods, payloads of messaging methods and Kafka JSON targets, with what they hold. */
    private static Set<String> crossingTypes(Index index) {
        Deque<Type> pending = new ArrayDeque<>();
        for (AnnotationInstance path : index.getAnnotations(PATH)) {
            if (path.target().kind() == AnnotationTarget.Kind.CLASS) {
                for (MethodInfo method : path.target().asClass().methods()) {
                    if (method.annotations().stream().anyMatch(annotation -> HTTP_METHODS.contains(annotation.name()))) {
                        pending.add(method.returnType());
                        method.parameters().stream().filter(parameter -> parameter.annotations().isEmpty())
                                .map(MethodParameterInfo::type).forEach(pending::add);
                    }
                }
            }
        }
        for (DotName messaging : MESSAGING) {
            for (AnnotationInstance annotation : index.getAnnotations(messaging)) {
                MethodInfo method = annotation.target().asMethod();
                method.parameterTypes().forEach(pending::add);
                pending.add(method.returnType());
            }
        }
        for (ClassInfo deserializer : index.getAllKnownSubclasses(JSON_DESERIALIZER)) {
            pending.add(deserializer.superClassType());
        }
        // Consumers take the record's text and read it with an EventReader<Event> field.
        for (ClassInfo type : index.getKnownClasses()) {
            type.fields().stream().map(FieldInfo::type)
                    .filter(field -> field.kind() == Type.Kind.PARAMETERIZED_TYPE && field.name().equals(EVENT_READER))
                    .forEach(field -> field.asParameterizedType().arguments().forEach(pending::add));
        }
        Set<String> crossing = new TreeSet<>();
        while (!pending.isEmpty()) {
            Type type = pending.pop();
            switch (type.kind()) {
                case PARAMETERIZED_TYPE -> {
                    type.asParameterizedType().arguments().forEach(pending::add);
                    add(type.name(), index, crossing, pending);
                }
                case ARRAY -> pending.add(type.asArrayType().constituent());
                case CLASS -> add(type.name(), index, crossing, pending);
                default -> {
                }
            }
        }
        return crossing;
    }

    private static void add(DotName name, Index index, Set<String> crossing, Deque<Type> pending) {
        ClassInfo type = index.getClassByName(name);
        if (type == null || !name.toString().startsWith(OURS) || type.isEnum() || type.isInterface() || !crossing.add(name.toString())) {
            return;
        }
        type.recordComponents().stream().map(RecordComponentInfo::type).forEach(pending::add);
        type.fields().stream().filter(field -> !Modifier.isStatic(field.flags())).map(FieldInfo::type).forEach(pending::add);
    }
}
