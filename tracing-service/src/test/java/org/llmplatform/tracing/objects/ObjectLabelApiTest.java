package org.llmplatform.tracing.objects;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/**
 * Tags and aliases on object versions, through HTTP, as the reference's routes behave: writes are idempotent,
 * an alias names one version at a time, {@code obj/read} reads by alias, {@code objs/query} filters by both and
 * shows them on request, a deleted version loses its labels.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ObjectLabelApiTest {

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("labels");
    }

    private String create(String objectId, Object val) {
        Map<String, Object> obj = Map.of("project_id", client.project, "object_id", objectId, "val", val);
        return client.post("/obj/create", Map.of("obj", obj)).statusCode(200).extract().path("digest");
    }

    private ValidatableResponse put(String path, Object body) {
        return given().header("Authorization", "Bearer " + client.key).contentType(ContentType.JSON).body(body)
                .put(path).then();
    }

    private ValidatableResponse get(String path) {
        return given().header("Authorization", "Bearer " + client.key).queryParam("project_id", client.project)
                .get(path).then();
    }

    private ValidatableResponse addTags(String objectId, String digest, List<String> tags) {
        return put("/objs/" + objectId + "/versions/" + digest + "/tags", Map.of("project_id", client.project, "tags", tags));
    }

    private ValidatableResponse setAliases(String objectId, String digest, List<String> aliases) {
        return put("/objs/" + objectId + "/aliases", Map.of("project_id", client.project, "digest", digest, "aliases", aliases));
    }

    private List<Map<String, Object>> query(Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(extra);
        body.put("project_id", client.project);
        return client.post("/objs/query", body).statusCode(200).extract().path("objs");
    }

    private ValidatableResponse read(String objectId, String digest, boolean labels) {
        return client.post("/obj/read", Map.of("project_id", client.project, "object_id", objectId, "digest", digest,
                "include_tags_and_aliases", labels));
    }

    @Test
    void tagsAreAddedAndRemovedIdempotentlyAndListedSorted() {
        String first = create("model", Map.of("v", 1));
        String second = create("model", Map.of("v", 2));
        addTags("model", first, List.of("reviewed", "production")).statusCode(200).body(equalTo("{}"));
        addTags("model", first, List.of("production")).statusCode(200);
        addTags("model", second, List.of("Nightly run", "reviewed")).statusCode(200);

        get("/tags").statusCode(200).body("tags", equalTo(List.of("Nightly run", "production", "reviewed")));
        read("model", first, true).statusCode(200).body("obj.tags", equalTo(List.of("production", "reviewed")))
                .body("obj.aliases", equalTo(List.of()));

        client.post("/objs/model/versions/" + first + "/tags/remove", Map.of("project_id", client.project,
                "tags", List.of("reviewed", "never-added"))).statusCode(200).body(equalTo("{}"));
        client.post("/objs/model/versions/" + first + "/tags/remove", Map.of("project_id", client.project,
                "tags", List.of("reviewed"))).statusCode(200);
        read("model", first, true).statusCode(200).body("obj.tags", equalTo(List.of("production")));
        get("/tags").statusCode(200).body("tags", equalTo(List.of("Nightly run", "production", "reviewed")));
    }

    @Test
    void anAliasNamesOneVersionAtATimeAndMoves() {
        String first = create("prompt", Map.of("text", "a"));
        String second = create("prompt", Map.of("text", "b"));
        setAliases("prompt", first, List.of("staging", "production")).statusCode(200).body(equalTo("{}"));
        read("prompt", "staging", false).statusCode(200).body("obj.digest", equalTo(first));

        setAliases("prompt", second, List.of("staging")).statusCode(200);
        read("prompt", "staging", false).statusCode(200).body("obj.digest", equalTo(second))
                .body("obj.val.text", equalTo("b"));
        read("prompt", "production", true).statusCode(200).body("obj.digest", equalTo(first))
                .body("obj.aliases", equalTo(List.of("production")));
        read("prompt", second, true).statusCode(200).body("obj.aliases", equalTo(List.of("latest", "staging")));
        assertEquals(List.of(second), digests(query(Map.of("filter", Map.of("aliases", List.of("staging"))))));
        get("/aliases").statusCode(200).body("aliases", equalTo(List.of("production", "staging")));

        client.post("/objs/prompt/aliases/remove", Map.of("project_id", client.project, "aliases", List.of("staging", "gone")))
                .statusCode(200).body(equalTo("{}"));
        read("prompt", "staging", false).statusCode(404).body("reason", equalTo("Obj prompt:staging not found"));
        get("/aliases").statusCode(200).body("aliases", equalTo(List.of("production")));
    }

    @Test
    void anAliasIsPerObjectAndVersionNamesKeepTheirMeaning() {
        String model = create("model", Map.of("v", 1));
        String other = create("dataset", Map.of("rows", 1));
        setAliases("model", model, List.of("best")).statusCode(200);
        setAliases("dataset", other, List.of("best")).statusCode(200);
        read("model", "best", false).statusCode(200).body("obj.object_id", equalTo("model")).body("obj.digest", equalTo(model));
        read("dataset", "best", false).statusCode(200).body("obj.digest", equalTo(other));
        String newer = create("model", Map.of("v", 2));
        read("model", "latest", false).statusCode(200).body("obj.digest", equalTo(newer));
        read("model", "v0", false).statusCode(200).body("obj.digest", equalTo(model));
        read("model", model, false).statusCode(200).body("obj.digest", equalTo(model));
    }

    @Test
    void objsQueryFiltersByAnyTagOrAliasAndShowsLabelsOnRequest() {
        String first = create("ds", Map.of("n", 1));
        String second = create("ds", Map.of("n", 2));
        String third = create("ds", Map.of("n", 3));
        String op = create("other", Map.of("n", 4));
        addTags("ds", first, List.of("gold")).statusCode(200);
        addTags("ds", second, List.of("silver")).statusCode(200);
        addTags("other", op, List.of("gold")).statusCode(200);
        setAliases("ds", second, List.of("candidate")).statusCode(200);

        assertEquals(List.of(first, op), digests(query(Map.of("filter", Map.of("tags", List.of("gold"))))));
        assertEquals(List.of(first, second), digests(query(Map.of("filter", Map.of("tags", List.of("gold", "silver"),
                "object_ids", List.of("ds"))))));
        assertEquals(List.of(second, third), digests(query(Map.of("filter", Map.of("aliases", List.of("candidate", "latest"),
                "object_ids", List.of("ds"))))));
        assertEquals(List.of(third, op), digests(query(Map.of("filter", Map.of("aliases", List.of("latest"))))));
        assertEquals(List.of(), digests(query(Map.of("filter", Map.of("tags", List.of("bronze"))))));

        List<Map<String, Object>> labelled = query(Map.of("filter", Map.of("object_ids", List.of("ds")),
                "include_tags_and_aliases", true));
        assertEquals(List.of(List.of("gold"), List.of("silver"), List.of()), labelled.stream().map(o -> o.get("tags")).toList());
        assertEquals(List.of(List.of(), List.of("candidate"), List.of("latest")),
                labelled.stream().map(o -> o.get("aliases")).toList());
        Map<String, Object> plain = query(Map.of("filter", Map.of("object_ids", List.of("ds")))).get(0);
        assertEquals(false, plain.containsKey("tags"));
        assertEquals(false, plain.containsKey("aliases"));
    }

    @Test
    void invalidNamesAreRefusedNamingTheField() {
        String digest = create("model", Map.of("v", 1));
        addTags("model", digest, List.of("ok", "no/slash")).statusCode(400).body("reason", equalTo(
                "tag name 'no/slash' is invalid: only alphanumeric characters, hyphens, underscores, and single spaces "
                        + "between words are allowed"));
        addTags("model", digest, List.of("two  spaces")).statusCode(400).body("reason", containsString("tag name"));
        addTags("model", digest, List.of("")).statusCode(400).body("reason", equalTo("tag name must not be empty"));
        addTags("model", digest, List.of("t".repeat(257))).statusCode(400)
                .body("reason", equalTo("tag name must be at most 256 characters"));
        addTags("model", digest, List.of("étiquette_1", "t".repeat(256))).statusCode(200);

        setAliases("model", digest, List.of("latest")).statusCode(400).body("reason", equalTo("alias name 'latest' is reserved"));
        setAliases("model", digest, List.of("v3")).statusCode(400)
                .body("reason", equalTo("alias name 'v3' is reserved (matches version pattern v<number>)"));
        setAliases("model", digest, List.of("a:b")).statusCode(400).body("reason", equalTo("alias name cannot contain character ':'"));
        setAliases("model", digest, List.of("a/b")).statusCode(400).body("reason", equalTo("alias name cannot contain character '/'"));
        setAliases("model", digest, List.of("   ")).statusCode(400).body("reason", equalTo("alias name must not be whitespace-only"));
        setAliases("model", digest, List.of("a".repeat(129))).statusCode(400)
                .body("reason", equalTo("alias name must be at most 128 characters"));
        setAliases("model", digest, List.of("release candidate #1", "v1-candidate")).statusCode(200);
        get("/aliases").statusCode(200).body("aliases", equalTo(List.of("release candidate #1", "v1-candidate")));
        get("/tags").statusCode(200).body("tags", equalTo(List.of("t".repeat(256), "étiquette_1")));

        put("/objs/model/versions/" + digest + "/tags", Map.of("project_id", client.project)).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "tags")));
        put("/objs/model/aliases", Map.of("project_id", client.project, "aliases", List.of("x"))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "digest")));
        put("/objs/model/aliases", Map.of("project_id", client.project, "digest", "d".repeat(129), "aliases", List.of("x")))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "digest")));
        addTags("m".repeat(129), digest, List.of("x")).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("path", "object_id")));
        given().header("Authorization", "Bearer " + client.key).get("/tags").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("query", "project_id")));
    }

    @Test
    void onlyLiveVersionsTakeLabelsAndDeletingAVersionDropsThem() {
        String first = create("model", Map.of("v", 1));
        String second = create("model", Map.of("v", 2));
        addTags("model", "unknown", List.of("x")).statusCode(404).body("reason", equalTo("Object version model:unknown not found"));
        setAliases("model", "unknown", List.of("x")).statusCode(404);
        addTags("model", first, List.of("old")).statusCode(200);
        setAliases("model", first, List.of("stable")).statusCode(200);
        addTags("model", second, List.of("new")).statusCode(200);

        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "model", "digests", List.of(first)))
                .statusCode(200);
        get("/tags").statusCode(200).body("tags", equalTo(List.of("new")));
        get("/aliases").statusCode(200).body("aliases", equalTo(List.of()));
        read("model", "stable", false).statusCode(404);
        addTags("model", first, List.of("again")).statusCode(404)
                .body("reason", equalTo("Object version model:" + first + " not found"));
        setAliases("model", first, List.of("stable")).statusCode(404);
    }

    @Test
    void anotherProjectsLabelsAreNeitherSeenNorReachable() {
        String digest = create("model", Map.of("v", 1));
        addTags("model", digest, List.of("mine")).statusCode(200);
        TraceClient stranger = new TraceClient("labels-stranger");
        given().header("Authorization", "Bearer " + stranger.key).queryParam("project_id", client.project).get("/tags")
                .then().statusCode(403);
        given().header("Authorization", "Bearer " + stranger.key).contentType(ContentType.JSON)
                .body(Map.of("project_id", client.project, "digest", digest, "aliases", List.of("latest")))
                .put("/objs/model/aliases").then().statusCode(403);
        given().header("Authorization", "Bearer " + stranger.key).queryParam("project_id", stranger.project).get("/tags")
                .then().statusCode(200).body("tags", equalTo(List.of()));
    }

    private static List<String> digests(List<Map<String, Object>> objs) {
        return objs.stream().map(obj -> (String) obj.get("digest")).toList();
    }
}
