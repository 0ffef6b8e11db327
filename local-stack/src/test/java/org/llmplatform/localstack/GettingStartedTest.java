package org.llmplatform.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GettingStartedTest {

    @Test
    void theReadmesFirstScreenShowsWhatThePlatformPrintsWithTheKeyLeftOut() throws Exception {
        String readme = Files.readString(Path.of("../README.md"));
        String firstScreen = readme.substring(0, readme.indexOf("\n## The services"));

        for (String line : GettingStarted.lines(URI.create("http://localhost:8000"), URI.create("https://localhost:8443"), "<key>",
                Optional.of("stories260K"))) {
            assertTrue(firstScreen.contains(line), "the README's first screen lacks the line\n" + line);
        }
    }

    @Test
    void everyClientIsPointedAtTheConsolesOriginWithTheKey() {
        List<String> lines = GettingStarted.lines(URI.create("http://localhost:9300/"), URI.create("https://localhost:9305"), "k3y",
                Optional.empty());

        assertEquals(List.of(
                "Point every client at http://localhost:9300 (the console relays every API):",
                "  Weave TypeScript SDK:  WF_TRACE_SERVER_URL=http://localhost:9300 WANDB_API_KEY=k3y WANDB_BASE_URL=https://localhost:9305",
                "  Weave Python SDK:      WF_TRACE_SERVER_URL=http://localhost:9300 WANDB_API_KEY=k3y WANDB_BASE_URL=http://localhost:9300",
                "      then weave.init('dev/my-app'); the link printed for each call opens it in the console",
                "  OpenAI SDKs:    OPENAI_BASE_URL=http://localhost:9300/v1 OPENAI_API_KEY=k3y",
                "      header Compat-Project: dev/my-app (the project its usage goes to)",
                "  OTLP exporter:  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://localhost:9300/otel/v1/traces",
                "                  OTEL_EXPORTER_OTLP_TRACES_HEADERS=wandb-api-key=k3y,project_id=dev/my-app",
                "  ART:            ServerlessBackend(base_url=\"http://localhost:9300/v1\", api_key=\"k3y\")"), lines);
    }
}
