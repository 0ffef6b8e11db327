package org.llmplatform.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContainerImagesTest {

    @Test
    void everyServiceHasAJvmAndANativeDockerfileOnPinnedBaseImages() throws IOException {
        for (String service : Services.NAMES) {
            for (String variant : List.of("Dockerfile.jvm", "Dockerfile.native")) {
                Path dockerfile = Services.module(service).resolve("src/main/docker").resolve(variant);
                assertTrue(Files.isRegularFile(dockerfile), dockerfile + " is missing");
                List<String> lines = Files.readAllLines(dockerfile);
                lines.stream().filter(line -> line.startsWith("FROM "))
                        .forEach(line -> assertTrue(ResourceChecks.isPinned(line.substring(5).split(" ")[0]), dockerfile + ": " + line));
                assertTrue(lines.contains("EXPOSE " + Services.httpPort(service)), dockerfile + " must expose " + Services.httpPort(service));
                assertTrue(lines.stream().anyMatch(line -> line.matches("USER [0-9]+")), dockerfile + " must run as a numeric non-root user");
            }
        }
    }

    @Test
    void theNativeProfileBuildsNativeExecutables() throws IOException {
        String pom = Files.readString(Manifests.REPOSITORY.resolve("pom.xml"));
        assertTrue(pom.contains("<id>native</id>") && pom.contains("<quarkus.native.enabled>true</quarkus.native.enabled>"));
        assertEquals(1, pom.split("<id>native</id>", -1).length - 1);
    }
}
