package org.llmplatform.tracing.refs;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.tracing.TraceClient;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class RefApiTest {

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("refs");
    }

    private String publish(String objectId, Object val) {
        String digest = client.post("/obj/create", Map.of("obj", Map.of("project_id", client.project, "object_id", objectId,
                "val", val))).statusCode(200).extract().path("digest");
        return "weave:///" + client.project + "/object/" + objectId + ":" + digest;
    }

    private ValidatableResponse read(String... refs) {
        return client.post("/refs/read_batch", Map.of("refs", Arrays.asList(refs)));
    }

    private List<Object> vals(String... refs) {
        return read(refs).statusCode(200).extract().path("vals");
    }

    @Test
    void refsAreReadInOrder() {
        String list = publish("list", List.of(1, 2, 3));
        String dict = publish("dict", Map.of("a", List.of(3, 4, 5)));
        assertEquals(List.of(List.of(1, 2, 3), Map.of("a", List.of(3, 4, 5))), vals(list, dict));
        assertEquals(List.of(Map.of("a", List.of(3, 4, 5)), List.of(1, 2, 3), List.of(1, 2, 3)), vals(dict, list, list));
        assertEquals(List.of(), vals());
        String op = client.post("/obj/create", Map.of("obj", Map.of("project_id", client.project, "object_id", "my_op",
                "val", Map.of("_type", "CustomWeaveType", "weave_type", Map.of("type", "Op"), "files", Map.of("obj.py", "d")))))
                .statusCode(200).extract().path("digest");
        assertEquals("Op", ((Map<?, ?>) ((Map<?, ?>) vals("weave:///" + client.project + "/op/my_op:" + op).get(0))
                .get("weave_type")).get("type"));
        assertEquals(List.of(List.of(1, 2, 3)), vals("weave:///" + client.project + "/object/list:v0"));
    }

    @Test
    void theExtraPathWalksKeysAttributesAndIndices() {
        String ref = publish("my-list", List.of(Map.of("a", 5), Map.of("a", 6, "b c", "spaced")));
        assertEquals(Arrays.asList(5, Map.of("a", 6, "b c", "spaced"), null, null, "spaced"),
                vals(ref + "/index/0/key/a", ref + "/index/1", ref + "/index/7", ref + "/index/0/key/missing",
                        ref + "/index/1/attr/b%20c"));
        read(ref + "/index/x").statusCode(400);
        read(ref + "/index/0/id/abc").statusCode(400);
    }

    @Test
    void nestedObjectAndTableRefsAreFollowed() {
        String inner = publish("inner", Map.of("x", Map.of("y", 42)));
        String outer = publish("outer", Map.of("inner", inner, "deep", inner + "/key/x"));
        assertEquals(List.of(42, 42, inner), vals(outer + "/key/inner/key/x/key/y", outer + "/key/deep/key/y", outer + "/key/inner"));

        Map<String, Object> created = client.post("/table/create", Map.of("table", Map.of("project_id", client.project,
                "rows", List.of(Map.of("a", 1), Map.of("a", 2))))).statusCode(200).extract().as(Map.class);
        String table = "weave:///" + client.project + "/table/" + created.get("digest");
        String row = (String) ((List<?>) created.get("row_digests")).get(1);
        String dataset = publish("ds", Map.of("_type", "Dataset", "_class_name", "Dataset",
                "_bases", List.of("Object", "BaseModel"), "rows", table));
        assertEquals(List.of(2, Map.of("a", 2), table), vals(dataset + "/attr/rows/id/" + row + "/key/a", dataset + "/attr/rows/id/" + row,
                dataset + "/attr/rows"));
        read(dataset + "/attr/rows/id/nosuchrow").statusCode(404).body("reason", equalTo("Row digest nosuchrow not found"));
        read(dataset + "/attr/rows/key/a").statusCode(400);

        String foreign = publish("foreign", Map.of("other", "weave:///someone/else/object/x:abc"));
        assertEquals(Arrays.asList((Object) null), vals(foreign + "/key/other/key/a"));
    }

    @Test
    void aDeletedVersionReadsAsNull() {
        String kept = publish("kept", 1);
        String gone = publish("gone", 2);
        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "gone")).statusCode(200);
        assertEquals(Arrays.asList(1, null), vals(kept, gone));
    }

    @Test
    void unreadableRefsAreRefused() {
        String ref = publish("o", 1);
        read("weave:///" + client.project + "/table/abc").statusCode(400).body("reason", equalTo("Table refs not supported"));
        read("weave:///" + client.project + "/call/abc").statusCode(400)
                .body("reason", equalTo("Call refs not supported in batch read, use calls_query_stream"));
        read("weave:///" + client.project + "/object/o:latest").statusCode(400)
                .body("reason", equalTo("Reading refs with `latest` is not supported"));
        for (String bad : List.of("not a ref", ref + "/key", ref + "/bogus/x", "weave:///" + client.project + "/object/o",
                "weave:///" + client.project + "/thing/o:d")) {
            read(ref, bad).statusCode(400).body("reason", equalTo("Invalid ref: " + bad));
        }
        read(ref, "weave:///" + client.project + "/object/o:" + "A".repeat(43)).statusCode(404)
                .body("reason", equalTo("Obj o:" + "A".repeat(43) + " not found"));
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            many.add(ref);
        }
        client.post("/refs/read_batch", Map.of("refs", many)).statusCode(400);
        client.post("/refs/read_batch", Map.of("refs", List.of(ref), "extra", 1)).statusCode(422);
        client.post("/refs/read_batch", Map.of()).statusCode(422);

        String team = TestIdentities.unique("team");
        String member = TestIdentities.unique("member");
        TestIdentities.userWithKey(member);
        TestIdentities.team(team, member);
        read("weave:///" + team + "/p/object/o:abc").statusCode(403);
    }

    @Test
    void aThousandRefsAreReadInOneRequest() {
        List<String> refs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            refs.add(publish("o" + i, Map.of("i", i)));
        }
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            many.add(refs.get(i % 20) + "/key/i");
        }
        List<Object> vals = vals(many.toArray(String[]::new));
        assertEquals(1000, vals.size());
        assertEquals(19, vals.get(999));
    }
}
