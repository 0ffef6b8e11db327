package org.llmplatform.tracing.usage;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.reactive.messaging.ChannelRegistry;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * A user's app as it is written: the Weave TypeScript SDK (npm weave 0.11.1) and the openai npm client, unmodified,
 * {@code weave.wrapOpenAI(new OpenAI({baseURL: <gateway>/v1, defaultHeaders: {'Compat-Project': …}}))}, against the
 * packaged inference gateway ({@code quarkus-run.jar}, its own JVM, sharing this test's PostgreSQL and Kafka) and this
 * service, by {@code src/test/node/sdk-through-gateway.mjs}. Both orders are forced: the SDK's calls first (this
 * service's usage consumer is paused until they are in), and the gateway's first (the script holds the SDK's uploads
 * until the gateway's calls are in). Each completion is one call, the SDK's, and the project's calls count the tokens
 * the gateway's {@code GET /v1/usage} does. Needs {@code npm ci --prefix src/test/node} and the gateway packaged
 * ({@code mvn -pl inference-gateway -am package -DskipTests}); skipped where either is missing.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class SdkThroughGatewayTest {

    private static final Path HARNESS = Path.of("src", "test", "node");
    private static final Path GATEWAY_JAR = Path.of("..", "inference-gateway", "target", "quarkus-app", "quarkus-run.jar");
    private static final List<Path> MODEL_FOLDERS = List.of(Path.of("..", "models"), Path.of("..", "..", "shared", "models"));
    private static final Instant MARKER_START = Instant.parse("2025-03-01T10:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static Process gateway;
    private static URI gatewayUri;

    @TestHTTPResource("/")
    URL base;

    @Inject
    ChannelRegistry channels;

    @Inject
    ObjectMapper json;

    @BeforeAll
    static void startTheGateway() throws Exception {
        Optional<Path> models = MODEL_FOLDERS.stream().filter(folder -> Files.isRegularFile(folder.resolve("stories260K.bin")))
                .findFirst();
        if (!Files.isDirectory(HARNESS.resolve("node_modules").resolve("openai")) || !Files.isRegularFile(GATEWAY_JAR)
                || models.isEmpty()) {
            return;
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        Path model = models.get().toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-Dgateway.models.\"stories260K\".checkpoint=" + model.resolve("stories260K.bin"),
                "-Dgateway.models.\"stories260K\".tokenizer=" + model.resolve("tok512.bin"), "-jar",
                GATEWAY_JAR.toAbsolutePath().toString()).redirectErrorStream(true)
                .redirectOutput(Files.createTempFile("gateway", ".log").toFile());
        Map<String, String> environment = builder.environment();
        environment.put("QUARKUS_HTTP_PORT", String.valueOf(port));
        environment.put("QUARKUS_DATASOURCE_JDBC_URL", postgres.jdbcUrl());
        environment.put("QUARKUS_DATASOURCE_REACTIVE_URL", postgres.reactiveUrl());
        environment.put("QUARKUS_DATASOURCE_USERNAME", PostgresServer.USER);
        environment.put("QUARKUS_DATASOURCE_PASSWORD", PostgresServer.PASSWORD);
        environment.put("KAFKA_BOOTSTRAP_SERVERS", PlatformTestResources.engines().kafkaBootstrapServers());
        environment.put("PLATFORM_AUTH_BOOTSTRAP_ADMIN_KEY", PlatformTestResources.ADMIN_KEY);
        environment.put("PLATFORM_DATA_DIR", Files.createTempDirectory("gateway-data").toString());
        gateway = builder.start();
        gatewayUri = URI.create("http://127.0.0.1:" + port);
        Awaitility.await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500)).until(() -> {
            assertTrue(gateway.isAlive(), "the gateway exited: see its log in the temporary folder");
            try {
                return HTTP.send(HttpRequest.newBuilder(gatewayUri.resolve("/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    @AfterAll
    static void stopTheGateway() throws InterruptedException {
        if (gateway != null) {
            gateway.destroy();
            if (!gateway.waitFor(20, TimeUnit.SECONDS)) {
                gateway.destroyForcibly();
            }
        }
    }

    @Test
    void theSdksCallsFirstThenTheUsageRecordsMakeOneCallPerCompletion() throws Exception {
        assumeTrue(gateway != null, "run npm ci --prefix " + HARNESS + " and package the gateway to enable this check");
        App app = new App("sdk-first");
        channels.getPausable("inference-usage").pause();
        List<String> ids;
        try {
            ids = app.run("sdk-first");
            assertEquals(List.of(), app.calls().stream().filter(call -> "inference.chat.completions".equals(call.path("op_name").asText()))
                    .toList(), "the usage records were held back");
        } finally {
            channels.getPausable("inference-usage").resume();
        }
        app.awaitUsageConsumed();
        app.assertOneSdkCallPerCompletion(ids);
    }

    @Test
    void theUsageRecordsFirstThenTheSdksCallsMakeOneCallPerCompletion() throws Exception {
        assumeTrue(gateway != null, "run npm ci --prefix " + HARNESS + " and package the gateway to enable this check");
        App app = new App("gateway-first");
        List<String> ids = app.run("gateway-first");
        app.awaitUsageConsumed();
        app.assertOneSdkCallPerCompletion(ids);
    }

    /** A user with a project, whose app the script is. */
    private final class App {
        final String user = TestIdentities.unique("story-app");
        final String key = TestIdentities.userWithKey(user);
        final String project;

        App(String name) {
            project = user + "/" + name;
        }

        List<String> run(String order) throws Exception {
            String url = base.toString();
            ProcessBuilder builder = new ProcessBuilder("node", "sdk-through-gateway.mjs", project, order)
                    .directory(HARNESS.toFile()).redirectErrorStream(true);
            builder.environment().put("WF_TRACE_SERVER_URL", url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            builder.environment().put("WANDB_API_KEY", key);
            builder.environment().put("GATEWAY_URL", gatewayUri.toString());
            builder.environment().put("WEAVE_PRINT_CALL_LINK", "false");
            builder.environment().put("HOME", Files.createTempDirectory("weave-home").toString());
            Process node = builder.start();
            boolean finished = node.waitFor(180, TimeUnit.SECONDS);
            if (!finished) {
                node.destroyForcibly();
            }
            String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(finished, "the script did not finish within 180 s:\n" + output);
            assertEquals(0, node.exitValue(), output);
            String result = output.lines().filter(line -> line.startsWith("RESULT ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no RESULT line:\n" + output));
            List<String> ids = new ArrayList<>();
            JSON.readTree(result.substring("RESULT ".length())).path("ids").forEach(id -> ids.add(id.asText()));
            return ids;
        }

        /** Produces a record after the gateway's (same project: same partition) and waits for its call. */
        void awaitUsageConsumed() throws Exception {
            String marker = "marker-" + UUID.randomUUID();
            Properties config = new Properties();
            config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers());
            config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
                producer.send(new ProducerRecord<>(Topics.INFERENCE_USAGE, project, json.writeValueAsString(
                        new UsageRecord(UsageRecord.SCHEMA_VERSION, marker, project, user, "marker", 0, 0, 0,
                                UsageRecord.SUCCESS, MARKER_START, MARKER_START)))).get();
            }
            String markerCall = UsageCalls.callId(marker, MARKER_START);
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> calls().stream().anyMatch(call -> markerCall.equals(call.path("id").asText())));
        }

        void assertOneSdkCallPerCompletion(List<String> ids) throws Exception {
            List<JsonNode> calls = calls().stream().filter(call -> !"marker".equals(call.path("inputs").path("model").asText()))
                    .toList();
            assertEquals(2, ids.size());
            for (String id : ids) {
                List<String> ops = calls.stream().filter(call -> id.equals(call.path("output").path("id").asText()))
                        .map(call -> call.path("op_name").asText()).toList();
                assertEquals(1, ops.size(), "calls of " + id + ": " + ops);
                assertTrue(ops.get(0).contains("openai.chat.completions.create"), ops.get(0));
            }
            assertEquals(2, calls.size(), calls.toString());
            long tracedTokens = calls.stream().mapToLong(call -> totalTokens(call.path("summary").path("usage"))).sum();
            JsonNode usage = JSON.readTree(HTTP.send(HttpRequest.newBuilder(gatewayUri.resolve("/v1/usage?project=" + project))
                    .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString()).body());
            long gatewayTokens = 0;
            for (JsonNode total : usage.path("data")) {
                gatewayTokens += total.path("total_tokens").asLong();
            }
            assertTrue(tracedTokens > 0, calls.toString());
            assertEquals(gatewayTokens, tracedTokens, "the gateway's /v1/usage: " + usage);
        }

        List<JsonNode> calls() throws IOException {
            String lines = given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                    .body(Map.of("project_id", project)).post("/calls/stream_query").then().statusCode(200).extract().asString();
            List<JsonNode> calls = new ArrayList<>();
            for (String line : lines.split("\n")) {
                if (!line.isBlank()) {
                    calls.add(JSON.readTree(line));
                }
            }
            return calls;
        }

        private static long totalTokens(JsonNode usageByModel) {
            long total = 0;
            for (JsonNode usage : (Iterable<JsonNode>) () -> usageByModel.elements()) {
                total += usage.path("total_tokens").asLong();
            }
            return total;
        }
    }
}
