package org.llmplatform.tracing.objects;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ObjectApiTest {

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("objects");
    }

    private Map<String, Object> obj(String objectId, Object val) {
        Map<String, Object> obj = new HashMap<>();
        obj.put("project_id", client.project);
        obj.put("object_id", objectId);
        obj.put("val", val);
        return obj;
    }

    private String create(String objectId, Object val) {
        return client.post("/obj/create", Map.of("obj", obj(objectId, val))).statusCode(200)
                .body("object_id", equalTo(objectId)).extract().path("digest");
    }

    private io.restassured.response.ValidatableResponse read(String objectId, String digest) {
        return client.post("/obj/read", Map.of("project_id", client.project, "object_id", objectId, "digest", digest));
    }

    private List<Map<String, Object>> query(Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(extra);
        body.put("project_id", client.project);
        return client.post("/objs/query", body).statusCode(200).extract().path("objs");
    }

    @Test
    void theDigestIsTheReferenceDigestOfTheRawJson() {
        String raw = "{\"obj\": {\"project_id\": \"" + client.project + "\", \"object_id\": \"o\", "
                + "\"val\": {\"x\": 1.0, \"u\": \"\u00e9\"}}}";
        client.post("/obj/create", raw).statusCode(200).body("digest", equalTo("up72y3L7zf7dNi56jV9MPHa3SvBaXl9xBo4OrZCSwYk"));
        String integer = "{\"obj\": {\"project_id\": \"" + client.project + "\", \"object_id\": \"i\", \"val\": {\"i\": 1}}}";
        client.post("/obj/create", integer).statusCode(200).body("digest", equalTo("X9JzV19XGsTuoYkllRKAipPm3SFXfSO3ce8QJUxep1k"));
        assertEquals("2El9nYJ3CnBykmEJWqmPfvUVTXr0mfgDe2yiUClnhaY", create("sorted", Map.of("b", 2, "a", 1)));
        assertEquals("o2sfLDXEUi3RAFFFZGYX1wVMCFHpfHKgOcC9Xsn6BYM", create("list", List.of(1, 2, 3)));
        assertEquals("WqdirjgYu3J688ejbUlApbjECpiUUtIwT8lYYz81Tno", create("text", "hello"));
        read("o", "up72y3L7zf7dNi56jV9MPHa3SvBaXl9xBo4OrZCSwYk").statusCode(200)
                .body("obj.val.x", equalTo(1.0f)).body("obj.val.u", equalTo("\u00e9"));
    }

    @Test
    void publishingTheSameValueTwiceKeepsOneVersion() {
        String first = create("o", Map.of("a", 1));
        assertEquals(first, create("o", Map.of("a", 1)));
        String second = create("o", Map.of("a", 2));
        List<Map<String, Object>> versions = query(Map.of("filter", Map.of("object_ids", List.of("o"))));
        assertEquals(List.of(first, second), versions.stream().map(v -> v.get("digest")).toList());
        assertEquals(List.of(0, 1), versions.stream().map(v -> v.get("version_index")).toList());
        assertEquals(List.of(0, 1), versions.stream().map(v -> v.get("is_latest")).toList());
    }

    @Test
    void aVersionIsReadByDigestLatestOrIndex() {
        String first = create("o", Map.of("a", 1));
        String second = create("o", Map.of("a", 2));
        read("o", first).statusCode(200).body("obj.digest", equalTo(first)).body("obj.val.a", equalTo(1))
                .body("obj.version_index", equalTo(0)).body("obj.is_latest", equalTo(0)).body("obj.kind", equalTo("object"))
                .body("obj.svc_user_id", equalTo(client.user)).body("obj.deleted_at", nullValue())
                .body("obj.created_at", matchesPattern("\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z"));
        read("o", "latest").statusCode(200).body("obj.digest", equalTo(second)).body("obj.is_latest", equalTo(1));
        read("o", "v0").statusCode(200).body("obj.digest", equalTo(first));
        read("o", "v1").statusCode(200).body("obj.digest", equalTo(second));
        read("o", "v2").statusCode(404).body("reason", equalTo("Obj o:v2 not found"));
        read("missing", "latest").statusCode(404);
        client.post("/obj/read", Map.of("project_id", client.project, "object_id", "o", "digest", first, "metadata_only", true))
                .statusCode(200).body("obj.val", equalTo(Map.of())).body("obj.digest", equalTo(first));
    }

    @Test
    void invalidObjectNamesAreRefused() {
        for (String name : List.of("", "a/b", "with space", "a:b", "x".repeat(129))) {
            client.post("/obj/create", Map.of("obj", obj(name, 1))).statusCode(422)
                    .body("reason", matchesPattern("Invalid object name: .*"));
        }
        create("Ünïcode_name-1.2", 1);
        assertEquals(1, query(Map.of()).size());
    }

    @Test
    void malformedRequestsAreRefusedWithTheirProblem() {
        client.post("/obj/create", Map.of("obj", obj("o", 1), "extra", 1)).statusCode(422);
        client.post("/obj/create", Map.of("obj", Map.of("project_id", client.project, "object_id", "o"))).statusCode(422);
        client.post("/obj/create", "{\"obj\": ").statusCode(422);
        client.post("/obj/read", Map.of("project_id", client.project, "object_id", "o", "digest", "latest", "x", 1))
                .statusCode(422);
        client.post("/objs/query", Map.of("project_id", client.project, "filter", Map.of("nope", 1))).statusCode(422);
        client.post("/objs/query", Map.of("project_id", client.project, "limit", -1)).statusCode(400)
                .body("reason", equalTo("Limit must be a positive integer"));
        Map<String, Object> wrongDigest = obj("o", 1);
        wrongDigest.put("expected_digest", "not-it");
        client.post("/obj/create", Map.of("obj", wrongDigest)).statusCode(409);
        Map<String, Object> escaping = obj("op", Map.of("_type", "CustomWeaveType", "weave_type", Map.of("type", "Op"),
                "files", Map.of("../obj.py", "abc")));
        client.post("/obj/create", Map.of("obj", escaping)).statusCode(400).body("reason", matchesPattern(".*\\.\\..*"));
        assertEquals(0, query(Map.of()).size());
    }

    @Test
    void kindsAndClassesAreDetected() {
        create("my_op", Map.of("_type", "CustomWeaveType", "weave_type", Map.of("type", "Op"),
                "files", Map.of("obj.py", "zEIVUIj8pXMHWNtysqW8ozESqUHfqi1DCY7EIs5OohM"), "load_op", "NO_LOAD_OP"));
        create("ds", Map.of("_type", "Dataset", "_class_name", "Dataset", "_bases", List.of("Object", "BaseModel"),
                "rows", "weave:///" + client.project + "/table/abc"));
        create("model", Map.of("_class_name", "MyModel", "_bases", List.of("Model", "Object", "BaseModel")));
        create("plain", List.of(1));
        Map<String, Object> spec = obj("spec", Map.of("name", "rating", "field_schema", Map.of("type", "integer")));
        spec.put("builtin_object_class", "AnnotationSpec");
        client.post("/obj/create", Map.of("obj", spec)).statusCode(200);
        Map<String, Object> unknown = obj("u", Map.of("name", "x"));
        unknown.put("builtin_object_class", "NoSuchClass");
        client.post("/obj/create", Map.of("obj", unknown)).statusCode(400).body("reason", equalTo("Unknown object class: NoSuchClass"));

        read("my_op", "latest").body("obj.kind", equalTo("op")).body("obj.base_object_class", nullValue());
        read("ds", "latest").body("obj.kind", equalTo("object")).body("obj.base_object_class", equalTo("Dataset"))
                .body("obj.leaf_object_class", equalTo("Dataset"));
        read("model", "latest").body("obj.base_object_class", equalTo("Model")).body("obj.leaf_object_class", equalTo("MyModel"));
        read("plain", "latest").body("obj.leaf_object_class", nullValue());
        read("spec", "latest").body("obj.base_object_class", equalTo("AnnotationSpec"))
                .body("obj.val._class_name", equalTo("AnnotationSpec")).body("obj.val._bases", equalTo(List.of("BaseObject", "BaseModel")));

        assertEquals(List.of("my_op"), ids(query(Map.of("filter", Map.of("is_op", true)))));
        assertEquals(List.of("ds", "model", "plain", "spec"), ids(query(Map.of("filter", Map.of("is_op", false)))));
        assertEquals(List.of("model"), ids(query(Map.of("filter", Map.of("base_object_classes", List.of("Model"))))));
        assertEquals(List.of("ds", "spec"), ids(query(Map.of("filter", Map.of("exclude_base_object_classes", List.of("Model"))))));
        assertEquals(List.of("model"), ids(query(Map.of("filter", Map.of("leaf_object_classes", List.of("MyModel"))))));
    }

    @Test
    void objectsAreFilteredSortedAndPaged() {
        create("b", Map.of("v", 1));
        create("a", Map.of("v", 1));
        create("b", Map.of("v", 2));
        create("c", Map.of("v", 1));
        assertEquals(List.of("b", "a", "b", "c"), ids(query(Map.of())));
        assertEquals(List.of("a", "b", "c"), ids(query(Map.of("filter", Map.of("latest_only", true)))));
        assertEquals(List.of("c", "b", "b", "a"), ids(query(Map.of("sort_by", List.of(Map.of("field", "object_id", "direction", "desc"))))));
        assertEquals(List.of("c", "b", "a", "b"), ids(query(Map.of("sort_by", List.of(Map.of("field", "created_at", "direction", "desc"))))));
        assertEquals(List.of("b", "a", "b", "c"), ids(query(Map.of("sort_by", List.of(Map.of("field", "val", "direction", "desc"))))));
        assertEquals(List.of("a", "b"), ids(query(Map.of("limit", 2, "offset", 1))));
        List<Map<String, Object>> sized = query(Map.of("include_storage_size", true, "metadata_only", true, "limit", 1));
        assertEquals(Map.of(), sized.get(0).get("val"));
        assertEquals("{\"v\": 1}".length(), sized.get(0).get("size_bytes"));
        assertEquals(false, query(Map.of("limit", 1)).get(0).containsKey("size_bytes"));
    }

    @Test
    void deletedVersionsKeepTheirIndicesAndMoveLatest() {
        String v0 = create("o", Map.of("a", 0));
        String v1 = create("o", Map.of("a", 1));
        String v2 = create("o", Map.of("a", 2));
        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "o", "digests", List.of(v2, v2)))
                .statusCode(200).body("num_deleted", equalTo(1));
        read("o", v2).statusCode(404).body("reason", matchesPattern("o:v2 was deleted at .*Z"))
                .body("deleted_at", matchesPattern("\\d{4}-.*Z"));
        read("o", "latest").statusCode(200).body("obj.digest", equalTo(v1)).body("obj.version_index", equalTo(1));
        String v3 = create("o", Map.of("a", 3));
        read("o", v3).body("obj.version_index", equalTo(3)).body("obj.is_latest", equalTo(1));
        assertEquals(List.of(0, 1, 3), query(Map.of()).stream().map(v -> v.get("version_index")).toList());

        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "o", "digests", List.of(v2)))
                .statusCode(404).body("reason", equalTo("Object o (['" + v2 + "']) not found when deleting."));
        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "o", "digests", List.of("v0", "nope")))
                .statusCode(404).body("reason", equalTo("Delete request contains 2 digests, but found 1 objects to delete. "
                        + "Diff digests: {'nope'}"));
        read("o", v0).statusCode(200);

        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "o", "digests", List.of("latest", "v0")))
                .statusCode(200).body("num_deleted", equalTo(2));
        read("o", "latest").statusCode(200).body("obj.digest", equalTo(v1));
        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "o")).statusCode(200)
                .body("num_deleted", equalTo(1));
        assertEquals(0, query(Map.of()).size());
        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "o")).statusCode(404);

        assertEquals(v1, create("o", Map.of("a", 1)));
        read("o", "latest").statusCode(200).body("obj.digest", equalTo(v1)).body("obj.version_index", equalTo(4));
    }

    /** Publishes of one object serialise on its lock: each reads the versions committed before it. */
    @Test
    void concurrentPublishesOfOneObjectGetDistinctIndicesAndOneLatest() throws Exception {
        int publishes = 24;
        ExecutorService senders = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> digests = new ArrayList<>();
            for (int i = 0; i < publishes; i++) {
                int value = i;
                digests.add(senders.submit(() -> create("race", Map.of("a", value))));
            }
            for (Future<String> digest : digests) {
                digest.get(60, TimeUnit.SECONDS);
            }
        } finally {
            senders.shutdownNow();
        }
        List<Map<String, Object>> versions = query(Map.of());
        assertEquals(IntStream.range(0, publishes).boxed().toList(),
                versions.stream().map(version -> (Integer) version.get("version_index")).sorted().toList());
        assertEquals(1, versions.stream().filter(version -> Integer.valueOf(1).equals(version.get("is_latest"))).count());
        read("race", "latest").statusCode(200).body("obj.version_index", equalTo(publishes - 1));
    }

    @Test
    void deletingMoreThanAHundredDigestsIsRefused() {
        create("o", 1);
        List<String> digests = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            digests.add("d" + i);
        }
        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "o", "digests", digests)).statusCode(400)
                .body("reason", equalTo("Object delete request contains 101 objects. Please delete 100 or fewer objects at a time."));
        read("o", "latest").statusCode(200);
    }

    private static List<Object> ids(List<Map<String, Object>> objs) {
        return objs.stream().map(o -> o.get("object_id")).toList();
    }
}
