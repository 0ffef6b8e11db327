package org.llmplatform.tracing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;

/**
 * The Weave TypeScript SDK ({@code npm weave} 0.11.1, unmodified, Node 20) against the running service
 * (docs/tracing-service.md#the-typescript-sdk), by {@code src/test/node/weave-check.mjs}; what the SDK wrote is then read again
 * through the REST API. Needs {@code npm ci --prefix src/test/node} first; skipped where Node or that
 * install is missing.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class WeaveNpmSdkTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern OBJECT_REF = Pattern.compile("weave:///([^/]+/[^/]+)/(?:op|object)/([^:]+):(\\w+)");

    @TestHTTPResource("/")
    URL base;

    @Test
    void theWeaveSdkTracesPublishesAndReadsBackWhatTheRestApiServes() throws Exception {
        WeaveSdkScripts.assumeInstalled();
        TraceClient client = new TraceClient("weave-sdk");
        Map<String, Object> result = runSdk(client);

        List<Map<String, Object>> calls = client.query(Map.of());
        Map<String, Object> root = calls.stream().filter(call -> call.get("id").equals(result.get("rootId"))).findFirst()
                .orElseThrow();
        assertNull(root.get("parent_id"));
        List<Object> children = calls.stream().filter(call -> result.get("rootId").equals(call.get("parent_id")))
                .map(call -> call.get("id")).toList();
        assertEquals(result.get("childIds"), children);
        assertEquals(Map.of("sum", 3, "doubled", 6), root.get("output"));
        assertEquals(client.user, root.get("svc_user_id"));

        Map<String, Object> op = readObject(client, (String) root.get("op_name"));
        assertEquals("CustomWeaveType", op.get("_type"));
        assertEquals(Map.of("type", "Op"), op.get("weave_type"));
        String source = new String(fileContent(client, (String) ((Map<?, ?>) op.get("files")).get("obj.py")),
                StandardCharsets.UTF_8);
        assertTrue(source.contains("pipeline"), source);

        assertArrayEquals(Base64.getDecoder().decode((String) result.get("imageBase64")),
                fileContent(client, (String) result.get("imageDigest")));

        Map<?, ?> settings = (Map<?, ?>) result.get("settings");
        Map<String, Object> published = readObject(client, client.project, (String) settings.get("objectId"),
                (String) settings.get("digest"));
        assertEquals(Map.of("model", "gpt-4o-mini", "temperature", 0.25, "stop", List.of("\n")), published);

        Map<?, ?> datasetRef = (Map<?, ?>) result.get("dataset");
        Map<String, Object> dataset = readObject(client, client.project, (String) datasetRef.get("objectId"),
                (String) datasetRef.get("digest"));
        assertEquals("Dataset", dataset.get("_type"));
        String rowsRef = (String) dataset.get("rows");
        String tableDigest = rowsRef.substring(rowsRef.lastIndexOf('/') + 1);
        assertEquals("weave:///" + client.project + "/table/" + tableDigest, rowsRef);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) parse(client.post("/table/query", Map.of("project_id", client.project,
                "digest", tableDigest)).statusCode(200).extract().asString()).get("rows");
        assertEquals(result.get("rows"), rows.stream().map(row -> row.get("val")).toList());
        assertEquals(List.of(0, 1, 2), rows.stream().map(row -> row.get("original_index")).toList());
    }

    private Map<String, Object> runSdk(TraceClient client) throws Exception {
        return JSON.readValue(WeaveSdkScripts.result(WeaveSdkScripts.run("weave-check.mjs", base, client)),
                new TypeReference<>() {
                });
    }

    private static Map<String, Object> readObject(TraceClient client, String ref) {
        Matcher matcher = OBJECT_REF.matcher(ref);
        assertTrue(matcher.matches(), ref);
        return readObject(client, matcher.group(1), matcher.group(2), matcher.group(3));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readObject(TraceClient client, String project, String objectId, String digest) {
        String body = client.post("/obj/read", Map.of("project_id", project, "object_id", objectId, "digest", digest))
                .statusCode(200).extract().asString();
        return (Map<String, Object>) ((Map<String, Object>) parse(body).get("obj")).get("val");
    }

    /** Jackson rather than rest-assured's paths, which read 0.25 as a float. */
    private static Map<String, Object> parse(String json) {
        try {
            return JSON.readValue(json, new TypeReference<>() {
            });
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    private static byte[] fileContent(TraceClient client, String digest) {
        return io.restassured.RestAssured.given().header("Authorization", "Bearer " + client.key)
                .contentType(ContentType.JSON).body(Map.of("project_id", client.project, "digest", digest))
                .post("/file/content").then().statusCode(200).extract().asByteArray();
    }
}
