package org.llmplatform.deploy;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/** The deployed modules (the four services and the console), read from the repository beside {@code deploy/}. */
final class Services {

    static final List<String> NAMES = List.of("tracing-service", "inference-gateway", "training-service", "automation-service",
            "console");

    /** The module with no database or broker: it serves pages and routes every API prefix to its service. */
    static final String CONSOLE = "console";

    static Path module(String service) {
        return Manifests.REPOSITORY.resolve(service);
    }

    static Properties applicationProperties(String service) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(module(service).resolve("src/main/resources/application.properties"))) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    static int httpPort(String service) {
        return Integer.parseInt(applicationProperties(service).getProperty("quarkus.http.port"));
    }

    private Services() {
    }
}
