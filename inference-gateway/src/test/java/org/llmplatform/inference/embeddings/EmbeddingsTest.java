package org.llmplatform.inference.embeddings;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.chat.Callers;
import org.llmplatform.inference.usage.UsageTopic;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/** {@code POST /v1/embeddings} on the embedded engine, checked against the engine's own pooling. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class EmbeddingsTest {

    private static final String TEXT = "Once upon a time";

    private final Callers caller = Callers.fresh("embeddings");

    private static LlamaEngine engine() throws IOException {
        return LlamaEngine.load(Path.of("../models/stories260K.bin"), Path.of("../models/tok512.bin"));
    }

    private Response embed(String fields) {
        return caller.request().body("{\"model\":\"" + Callers.MODEL + "\"," + fields + "}").post("/v1/embeddings");
    }

    private static float[] floats(List<?> values) {
        float[] out = new float[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) values.get(i)).floatValue();
        }
        return out;
    }

    @Test
    void aTextIsEmbeddedAsTheUnitLengthMeanOfItsFinalHiddenStates() throws IOException {
        LlamaEngine engine = engine();
        int[] tokens = engine.tokenizer().encode(TEXT, true);
        JsonPath answer = embed("\"input\":\"" + TEXT + "\"").then().statusCode(200)
                .body("object", equalTo("list"))
                .body("id", startsWith("embd-"))
                .body("model", equalTo(Callers.MODEL))
                .body("data", hasSize(1))
                .body("data[0].object", equalTo("embedding"))
                .body("data[0].index", equalTo(0))
                .body("usage.prompt_tokens", equalTo(tokens.length))
                .body("usage.total_tokens", equalTo(tokens.length))
                .extract().jsonPath();
        float[] vector = floats(answer.getList("data[0].embedding"));
        assertEquals(engine.config().dim(), vector.length);
        float[] expected = engine.embed(tokens);
        for (int i = 0; i < vector.length; i++) {
            assertEquals(expected[i], vector[i], 1e-6);
        }
        double length = 0;
        for (float value : vector) {
            length += value * value;
        }
        assertEquals(1.0, length, 1e-5);
    }

    @Test
    void base64IsTheLittleEndianFloat32BytesOfTheSameVector() {
        float[] floats = floats(embed("\"input\":\"" + TEXT + "\"").then().statusCode(200).extract().jsonPath()
                .getList("data[0].embedding"));
        String encoded = embed("\"input\":\"" + TEXT + "\",\"encoding_format\":\"base64\"").then().statusCode(200)
                .extract().jsonPath().getString("data[0].embedding");
        ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(encoded)).order(ByteOrder.LITTLE_ENDIAN);
        float[] decoded = new float[bytes.remaining() / Float.BYTES];
        bytes.asFloatBuffer().get(decoded);
        assertEquals(Arrays.toString(floats), Arrays.toString(decoded));
    }

    @Test
    void everyInputOfAListIsEmbeddedInOrderAndTokenIdsAreTakenAsTheyAre() throws IOException {
        int[] tokens = engine().tokenizer().encode(TEXT, true);
        JsonPath texts = embed("\"input\":[\"" + TEXT + "\",\"The cat\"]").then().statusCode(200)
                .body("data.index", equalTo(List.of(0, 1))).extract().jsonPath();
        JsonPath ids = embed("\"input\":[" + Arrays.toString(tokens) + "]").then().statusCode(200)
                .body("usage.prompt_tokens", equalTo(tokens.length)).extract().jsonPath();
        assertEquals(texts.getList("data[0].embedding"), ids.getList("data[0].embedding"));
        assertEquals(texts.getList("data[0].embedding"), embed("\"input\":" + Arrays.toString(tokens)).then()
                .statusCode(200).extract().jsonPath().getList("data[0].embedding"));
    }

    @Test
    void embeddingsAreCountedInUsageWithoutCompletionTokens() throws IOException {
        String requestId = TestIdentities.unique("embd");
        int[] tokens = engine().tokenizer().encode(TEXT, true);
        caller.request().header("X-Request-Id", requestId)
                .body("{\"model\":\"" + Callers.MODEL + "\",\"input\":\"" + TEXT + "\"}").post("/v1/embeddings")
                .then().statusCode(200).body("id", equalTo("embd-" + requestId));
        JsonNode record = UsageTopic.awaitRecord(caller.user + "/inference", "embd-" + requestId);
        assertEquals("success", record.get("status").asText());
        assertEquals(tokens.length, record.get("prompt_tokens").asInt());
        assertEquals(0, record.get("completion_tokens").asInt());
        assertEquals(TEXT, record.at("/request/input").asText());
    }

    @Test
    void refusalsAreOpenAiErrorsNamingTheField() {
        embed("\"input\":\"x\",\"dimensions\":8").then().statusCode(400).body("error.param", equalTo("dimensions"))
                .body("error.message", startsWith("Model \"stories260K\" does not support matryoshka representation"));
        embed("\"input\":\"x\",\"encoding_format\":\"hex\"").then().statusCode(422)
                .body("error.param", equalTo("encoding_format"));
        embed("\"encoding_format\":\"float\"").then().statusCode(422).body("error.param", equalTo("input"));
        embed("\"input\":[]").then().statusCode(400).body("error.param", equalTo("input"));
        embed("\"input\":[1,2,9999]").then().statusCode(400).body("error.param", equalTo("input"));
        caller.request().body("\"x\"").post("/v1/embeddings").then().statusCode(422)
                .body("detail[0].type", equalTo("dict_type"));
        caller.request().body("{\"model\":\"no-such-model\",\"input\":\"x\"}").post("/v1/embeddings").then()
                .statusCode(404).body("error.code", equalTo("model_not_found"));
    }
}
