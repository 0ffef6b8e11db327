package org.llmplatform.inference.catalog;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.config.GatewayConfig;

class ModelCatalogTest {

    private record Files(Path checkpoint, Path tokenizer) implements GatewayConfig.EmbeddedModel {
    }

    private record Config(Map<String, EmbeddedModel> models) implements GatewayConfig {
        @Override
        public Map<String, Upstream> upstreams() {
            return Map.of();
        }

        @Override
        public Engine engine() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Limits limits() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Map<String, String> aliases() {
            return Map.of();
        }

        @Override
        public Map<String, ProjectRules> projects() {
            return Map.of();
        }

        @Override
        public Adapters adapters() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Training training() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Usage usage() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Responses responses() {
            throw new UnsupportedOperationException();
        }

        @Override
        public String defaultProjectName() {
            return "inference";
        }
    }

    @Test
    void theGatewayStartsWithoutModelFilesAndServesNothing() {
        ModelCatalog catalog = new ModelCatalog(new Config(Map.of("stories260K",
                new Files(Path.of("target/no-such-model.bin"), Path.of("target/no-such-tokenizer.bin")))));
        assertTrue(catalog.all().isEmpty());
        assertTrue(catalog.first().isEmpty());
        assertTrue(catalog.find("stories260K").isEmpty());
    }

    @Test
    void aFileThatIsNotACheckpointIsSkipped() {
        ModelCatalog catalog = new ModelCatalog(new Config(Map.of("broken",
                new Files(Path.of("pom.xml"), Path.of("pom.xml")))));
        assertTrue(catalog.all().isEmpty());
    }
}
