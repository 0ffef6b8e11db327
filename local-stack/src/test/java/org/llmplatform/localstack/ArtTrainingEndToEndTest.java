package org.llmplatform.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole platform from its packaged jars, driven over HTTP the way OpenPipe ART's serverless client drives
 * W&B (docs/training-service.md#how-art-waits-for-a-job): register a model, sample rollouts under the model's inference name through the
 * training base URL (which forwards chat completions to the gateway), log them, train, wait on the events, read
 * the new step, and see the trained adapter served. What the training API acknowledged is servable at once: the
 * samples right after registering and right after {@code training_ended} neither wait nor retry.
 * <p>
 * The platform is started as a user starts it, from {@code ./platform}'s arguments ({@link StackOptions#parse}): the
 * model the repository ships (models/README.md) by default, and {@code --upstream ID=URL,model=NAME,key-env=VAR}: its gateway also lists the upstream's model and relays to it under
 * the upstream's name with the key read from the variable. (One start serves both checks: a start of the whole
 * platform is the dearest thing in the suite.) Blobs sit in a bucket of an S3 server ({@code --blob-store s3}), as on a
 * cluster: the training-service writes the adapter there and the gateway serves {@code :step1} by reading it back,
 * sharing no folder. The default, files in the data folder, is what {@code .ci/smoke} trains on.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArtTrainingEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String PROJECT = "art-e2e";
    private static final String MODEL_NAME = "storyteller";

    private static final String UPSTREAM_SECRET = "sk-upstream-from-the-command-line";

    private static LocalStack stack;
    private static String key;

    private final List<JsonNode> upstreamReceived = new CopyOnWriteArrayList<>();
    private final List<String> upstreamAuthorizations = new CopyOnWriteArrayList<>();
    private HttpServer upstream;

    @BeforeAll
    void startThePlatform(@TempDir Path data) throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/v1/chat/completions", exchange -> {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            upstreamReceived.add(body);
            upstreamAuthorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
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
                "--blob-store", "s3", "--s3-port", String.valueOf(FreePorts.any()),
                "--upstream", "mine=http://127.0.0.1:" + upstream.getAddress().getPort() + "/v1,model=tiny-chat,key-env=MY_KEY"));
        for (PlatformService service : PlatformService.values()) {
            args.add(service.portOption());
            args.add(String.valueOf(FreePorts.any()));
        }
        Path home = Path.of("..").toAbsolutePath().normalize();
        stack = new LocalStack(StackOptions.parse(args.toArray(String[]::new), home, Map.of("MY_KEY", UPSTREAM_SECRET)::get), home);
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
    void theUpstreamNamedOnTheCommandLineIsListedAndAnsweredThroughTheGateway() throws Exception {
        JsonNode models = get(PlatformService.INFERENCE, "/v1/models");
        List<String> ids = models.path("data").findValuesAsText("id");
        assertTrue(ids.contains("mine") && ids.contains("stories260K"), ids.toString());

        JsonNode answer = post(PlatformService.INFERENCE, "/v1/chat/completions",
                Map.of("model", "mine", "messages", List.of(Map.of("role", "user", "content", "hi"))), 200);
        assertEquals("mine", answer.path("model").asText());
        assertEquals("Hi from upstream", answer.at("/choices/0/message/content").asText());
        assertEquals("tiny-chat", upstreamReceived.get(0).path("model").asText());
        assertEquals("Bearer " + UPSTREAM_SECRET, upstreamAuthorizations.get(0));
    }

    @Test
    void aModelTrainedThroughTheApiIsServedAtItsNewStep() throws Exception {
        JsonNode model = post(PlatformService.TRAINING, "/v1/preview/models", Map.of(
                "project", PROJECT, "name", MODEL_NAME, "base_model", "stories260K", "return_existing", true), 200);
        String modelId = model.get("id").asText();
        String entity = model.get("entity").asText();
        String inferenceName = "wandb-artifact:///" + entity + "/" + PROJECT + "/" + MODEL_NAME;

        // at once, through the gateway itself and through the training base URL ART samples from
        complete(PlatformService.INFERENCE, inferenceName + ":step0", "Once upon a time", 1, 7);
        JsonNode untrained = complete(PlatformService.TRAINING, inferenceName + ":step0", "Once upon a time", 1, 7);

        ArrayNode groups = JSON.createArrayNode();
        for (String prompt : List.of("Once upon a time", "The little dog", "One day, Lily")) {
            groups.addObject().set("trajectories", rollouts(inferenceName, prompt));
        }
        post(PlatformService.TRAINING, "/v1/preview/models/" + modelId + "/log", Map.of("split", "train", "trajectory_groups", groups), 200);

        JsonNode job = post(PlatformService.TRAINING, "/v1/preview/training-jobs", Map.of(
                "model_id", modelId, "trajectory_groups", groups, "experimental_config", Map.of("learning_rate", 5e-6)), 200);
        List<String> eventTypes = awaitTerminalEvent(job.get("id").asText());
        assertEquals("training_started", eventTypes.get(0));
        assertEquals("training_ended", eventTypes.get(eventTypes.size() - 1), "events: " + eventTypes);

        JsonNode checkpoints = get(PlatformService.TRAINING, "/v1/preview/models/" + modelId + "/checkpoints?order=asc");
        assertEquals(List.of("0", "1"), checkpoints.get("data").findValuesAsText("step"));
        assertTrue(checkpoints.get("data").get(0).get("metrics").has("train/reward"), "logged metrics sit on step 0: " + checkpoints);

        // the moment training_ended is visible: the new step by number, and as the latest under the bare name
        JsonNode trained = complete(PlatformService.TRAINING, inferenceName + ":step1", "Once upon a time", 1, 7);
        JsonNode latestServed = complete(PlatformService.TRAINING, inferenceName, "Once upon a time", 1, 7);
        assertNotEquals(logprobs(untrained), logprobs(trained), "step 1 must not answer exactly like step 0");
        assertEquals(logprobs(trained), logprobs(latestServed), "the bare name serves the latest step");
        assertEquals(logprobs(trained), logprobs(complete(PlatformService.INFERENCE, inferenceName + ":step1", "Once upon a time", 1, 7)),
                "the training base URL answers as the gateway does");
    }

    /**
     * The official openai npm client pointed at the training base URL passes the same checks as against the gateway
     * (create, streams, the stream helper, models list and retrieve, 422 and 400 errors), and what it asks is
     * attributed to its Compat-Project. Needs {@code npm ci --prefix inference-gateway/src/test/node}.
     */
    @Test
    void theOpenAiNpmClientWorksThroughTheTrainingBaseUrl() throws Exception {
        Path harness = Path.of("../inference-gateway/src/test/node").toAbsolutePath().normalize();
        assumeTrue(Files.isDirectory(harness.resolve("node_modules").resolve("openai")),
                "run npm ci --prefix inference-gateway/src/test/node to enable the npm SDK check");
        String project = "dev/art-sdk";
        Process node = new ProcessBuilder("node", "sdk-check.mjs", stack.baseUri(PlatformService.TRAINING).resolve("/v1").toString(), key,
                project).directory(harness.toFile()).redirectErrorStream(true).start();
        boolean finished = node.waitFor(120, TimeUnit.SECONDS);
        if (!finished) {
            node.destroyForcibly();
        }
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(finished, "the npm SDK check did not finish within 120 s: " + output);
        assertEquals(0, node.exitValue(), output);

        // usage reaches the gateway's totals through inference.usage, so it is awaited
        awaitJson(PlatformService.INFERENCE, "/v1/usage?project=" + project,
                usage -> usage.toString().contains("stories260K") && usage.findValues("requests").stream().mapToInt(JsonNode::asInt).sum() >= 3);
    }

    /** Four sampled completions of one prompt as ART trajectories, rewarded by how often they say "dog". */
    private static ArrayNode rollouts(String inferenceName, String prompt) throws Exception {
        JsonNode completion = complete(PlatformService.TRAINING, inferenceName, prompt, 4, 11);
        ArrayNode trajectories = JSON.createArrayNode();
        for (JsonNode choice : completion.get("choices")) {
            ObjectNode trajectory = trajectories.addObject();
            ArrayNode messages = trajectory.putArray("messages_and_choices");
            messages.addObject().put("role", "user").put("content", prompt);
            messages.add(choice);
            String text = choice.get("message").get("content").asText();
            trajectory.put("reward", text.split("dog", -1).length - 1 + text.length() / 100.0);
            trajectory.putObject("metrics").put("length", text.length()).put("mentions_dog", text.contains("dog"));
        }
        return trajectories;
    }

    private static JsonNode complete(PlatformService via, String model, String prompt, int n, long seed) throws Exception {
        return post(via, "/v1/chat/completions", Map.of(
                "model", model,
                "messages", List.of(Map.of("role", "user", "content", prompt)),
                "n", n, "seed", seed, "temperature", 1.0, "max_tokens", 32,
                "logprobs", true, "return_tokens_as_token_ids", true), 200);
    }

    private static List<Double> logprobs(JsonNode completion) {
        List<Double> values = new ArrayList<>();
        completion.get("choices").get(0).get("logprobs").get("content").forEach(token -> values.add(token.get("logprob").asDouble()));
        return values;
    }

    /** ART's wait loop: page through the events after a cursor until a terminal one arrives. */
    private static List<String> awaitTerminalEvent(String jobId) throws Exception {
        List<String> types = new ArrayList<>();
        String after = null;
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode page = get(PlatformService.TRAINING, "/v1/preview/training-jobs/" + jobId + "/events?limit=100"
                    + (after == null ? "" : "&after=" + after));
            for (JsonNode event : page.get("data")) {
                String type = event.get("type").asText();
                types.add(type);
                after = event.get("id").asText();
                if (type.equals("training_failed")) {
                    fail("training failed: " + event.get("data"));
                }
                if (type.equals("training_ended")) {
                    return types;
                }
            }
            Thread.sleep(500);
        }
        return fail("no terminal event within 3 minutes; saw " + types);
    }

    private static void awaitJson(PlatformService service, String path, Predicate<JsonNode> condition) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = get(service, path);
            if (condition.test(last)) {
                return;
            }
            Thread.sleep(250);
        }
        fail(path + " never satisfied the condition; last answer " + last);
    }

    private static JsonNode get(PlatformService service, String path) throws Exception {
        return send(HttpRequest.newBuilder(stack.baseUri(service).resolve(path)).GET(), 200);
    }

    private static JsonNode post(PlatformService service, String path, Object body, int expectedStatus) throws Exception {
        return send(HttpRequest.newBuilder(stack.baseUri(service).resolve(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))), expectedStatus);
    }

    private static JsonNode send(HttpRequest.Builder request, int expectedStatus) throws Exception {
        HttpResponse<String> response = HTTP.send(request.header("Authorization", "Bearer " + key)
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(expectedStatus, response.statusCode(), () -> response.uri() + " answered " + response.body());
        return JSON.readTree(response.body());
    }
}
