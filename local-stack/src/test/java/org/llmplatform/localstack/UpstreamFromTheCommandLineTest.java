package org.llmplatform.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./platform --upstream ID=URL,model=NAME,key-env=VAR} as a user runs it: the launcher's own argument handling
 * ({@link StackOptions#parse}) starts the packaged platform, whose gateway lists the upstream's model and relays to
 * it under the upstream's name with the key read from the variable.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UpstreamFromTheCommandLineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String SECRET = "sk-upstream-from-the-command-line";

    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private HttpServer upstream;
    private LocalStack stack;
    private String key;

    @BeforeAll
    void startThePlatformWithAnUpstream(@TempDir Path data) throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/v1/chat/completions", exchange -> {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            received.add(body);
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] answer = ("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\""
                    + body.path("model").asText() + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                    + "\"content\":\"Hi from upstream\"},\"finish_reason\":\"stop\"}],"
                    + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":3,\"total_tokens\":6}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        upstream.start();
        List<String> args = new ArrayList<>(List.of("--data-dir", data.toString(),
                "--postgres-port", String.valueOf(FreePorts.any()), "--kafka-port", String.valueOf(FreePorts.kafkaPair()),
                "--console-https-port", String.valueOf(FreePorts.any()),
                "--upstream", "mine=http://127.0.0.1:" + upstream.getAddress().getPort() + "/v1,model=tiny-chat,key-env=MY_KEY"));
        for (PlatformService service : PlatformService.values()) {
            args.add(service.portOption());
            args.add(String.valueOf(FreePorts.any()));
        }
        Path home = Path.of("..").toAbsolutePath().normalize();
        StackOptions options = StackOptions.parse(args.toArray(String[]::new), home, Map.of("MY_KEY", SECRET)::get);
        stack = new LocalStack(options, home);
        key = stack.start();
    }

    @AfterAll
    void stopThePlatform() {
        if (stack != null) {
            stack.stop();
        }
        if (upstream != null) {
            upstream.stop(0);
        }
    }

    @Test
    void theUpstreamsModelIsListedAndAnsweredThroughTheGateway() throws Exception {
        URI gateway = stack.baseUri(PlatformService.INFERENCE);
        HttpResponse<String> models = HTTP.send(HttpRequest.newBuilder(gateway.resolve("/v1/models"))
                .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, models.statusCode(), models.body());
        List<String> ids = new ArrayList<>();
        JSON.readTree(models.body()).path("data").forEach(model -> ids.add(model.path("id").asText()));
        assertTrue(ids.contains("mine") && ids.contains("stories260K"), ids.toString());

        HttpResponse<String> chat = HTTP.send(HttpRequest.newBuilder(gateway.resolve("/v1/chat/completions"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"mine\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, chat.statusCode(), chat.body());
        JsonNode answer = JSON.readTree(chat.body());
        assertEquals("mine", answer.path("model").asText());
        assertEquals("Hi from upstream", answer.at("/choices/0/message/content").asText());
        assertEquals("tiny-chat", received.get(0).path("model").asText());
        assertEquals("Bearer " + SECRET, authorizations.get(0));
    }
}
