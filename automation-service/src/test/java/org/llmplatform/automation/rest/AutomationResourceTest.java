package org.llmplatform.automation.rest;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.llmplatform.automation.Api.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.automation.Api;
import org.llmplatform.automation.Teams;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AutomationResourceTest {

    private static final Map<String, Object> ALIAS_FILTER = Map.of("$or", List.of(Map.of("$and", List.of(
            Map.of("alias", Map.of("$regex", "^prod"))))));

    private String team;
    private String adminKey;
    private String memberKey;
    private String webhookId;

    @BeforeEach
    void createTeamAndWebhook() {
        String admin = TestIdentities.unique("admin");
        String member = TestIdentities.unique("member");
        adminKey = TestIdentities.userWithKey(admin);
        memberKey = TestIdentities.userWithKey(member);
        team = TestIdentities.unique("team");
        Teams.withAdmin(team, admin, member);
        Api.putSecret(adminKey, team, "SIGNING", "s3cr3t");
        webhookId = Api.createWebhook(adminKey, team, "hook", "http://127.0.0.1:9/never", null, "SIGNING");
    }

    @Test
    void anAutomationIsCreatedReadAndChanged() {
        String id = Api.createAutomation(adminKey, Api.automation("promote", Api.projectScope(team, "registry"),
                "ADD_ARTIFACT_ALIAS", ALIAS_FILTER, webhookId, "{\"alias\": \"${alias}\", \"sig\": \"${SIGNING}\"}"));
        as(memberKey).get("/automations/{id}", id).then().statusCode(200)
                .body("name", equalTo("promote"))
                .body("enabled", equalTo(true))
                .body("scope.type", equalTo("PROJECT"))
                .body("scope.entity", equalTo(team))
                .body("scope.project", equalTo(team + "/registry"))
                .body("event.type", equalTo("ADD_ARTIFACT_ALIAS"))
                .body("event.filter.$or[0].$and[0].alias.$regex", equalTo("^prod"))
                .body("action.type", equalTo("WEBHOOK"))
                .body("action.webhook_id", equalTo(webhookId))
                .body("action.payload_template.alias", equalTo("${alias}"));
        as(adminKey).body(Map.of("enabled", false, "description", "off for now")).put("/automations/{id}", id)
                .then().statusCode(200).body("enabled", equalTo(false)).body("description", equalTo("off for now"))
                .body("name", equalTo("promote"));
        as(memberKey).queryParam("entity", team).get("/automations").then().statusCode(200).body("data.id", equalTo(List.of(id)));
    }

    @Test
    void aDuplicateNameInTheSameScopeIsA409ButAnotherScopeIsFine() {
        Map<String, Object> automation = Api.automation("same", Api.projectScope(team, "p1"), "LINK_ARTIFACT", null, webhookId, Map.of());
        Api.createAutomation(adminKey, automation);
        as(adminKey).body(automation).post("/automations").then().statusCode(409)
                .body("detail", equalTo("An automation named 'same' already exists in this scope"));
        Api.createAutomation(adminKey, Api.automation("same", Api.projectScope(team, "p2"), "LINK_ARTIFACT", null, webhookId, Map.of()));
    }

    @Test
    void anInvalidRegexIsA422() {
        Map<String, Object> badRegex = Map.of("alias", Map.of("$regex", "prod-("));
        as(adminKey).body(Api.automation("bad", Api.projectScope(team, "p"), "ADD_ARTIFACT_ALIAS", badRegex, webhookId, Map.of()))
                .post("/automations").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "event", "filter", "alias", "$regex")))
                .body("detail[0].msg", containsString("Invalid regex"));
    }

    @Test
    void anAliasAddedAutomationNeedsAnAliasFilter() {
        as(adminKey).body(Api.automation("bad", Api.projectScope(team, "p"), "ADD_ARTIFACT_ALIAS", null, webhookId, Map.of()))
                .post("/automations").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "event", "filter")));
    }

    @Test
    void anUnknownTemplateVariableIsA422NamingIt() {
        as(adminKey).body(Api.automation("bad", Api.projectScope(team, "p"), "LINK_ARTIFACT", null, webhookId,
                        Map.of("x", "${run_id}")))
                .post("/automations").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "action", "payload_template")))
                .body("detail[0].msg", containsString("${run_id}"));
        as(adminKey).body(Api.automation("bad", Api.projectScope(team, "p"), "LINK_ARTIFACT", null, webhookId,
                        Map.of("x", "${ACCESS_TOKEN}")))
                .post("/automations").then().statusCode(422)
                .body("detail[0].msg", containsString("no access token"));
    }

    @Test
    void unsupportedEventsScopesAndWebhooksAreRefused() {
        as(adminKey).body(Api.automation("bad", Api.projectScope(team, "p"), "RUN_METRIC", null, webhookId, Map.of()))
                .post("/automations").then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "event", "type")));
        as(adminKey).body(Api.automation("bad", Map.of("type", "ORG", "entity", team), "LINK_ARTIFACT", null, webhookId, Map.of()))
                .post("/automations").then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "scope", "type")));
        as(adminKey).body(Api.automation("bad", Api.projectScope(team, "p"), "LINK_ARTIFACT", null,
                        "00000000-0000-0000-0000-000000000000", Map.of()))
                .post("/automations").then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "action", "webhook_id")));
    }

    @Test
    void theLegacyLinkModelNameIsAccepted() {
        String id = Api.createAutomation(adminKey, Api.automation("legacy", Map.of("type", "ENTITY", "entity", team),
                "LINK_MODEL", null, webhookId, Map.of()));
        as(adminKey).get("/automations/{id}", id).then().body("event.type", equalTo("LINK_ARTIFACT"));
    }

    @Test
    void membersMayNotCreateAndOutsidersSeeNothing() {
        Map<String, Object> automation = Api.automation("x", Api.projectScope(team, "p"), "LINK_ARTIFACT", null, webhookId, Map.of());
        as(memberKey).body(automation).post("/automations").then().statusCode(403);
        String id = Api.createAutomation(adminKey, automation);
        as(memberKey).queryParam("confirm", "true").delete("/automations/{id}", id).then().statusCode(403);
        String outsider = TestIdentities.userWithKey(TestIdentities.unique("outsider"));
        as(outsider).get("/automations/{id}", id).then().statusCode(404);
        as(outsider).queryParam("entity", team).get("/automations").then().statusCode(403);
    }

    @Test
    void deletingNeedsConfirmation() {
        String id = Api.createAutomation(adminKey, Api.automation("gone", Api.projectScope(team, "p"), "LINK_ARTIFACT", null,
                webhookId, Map.of()));
        as(adminKey).delete("/automations/{id}", id).then().statusCode(422).body("detail[0].loc", equalTo(List.of("query", "confirm")));
        as(adminKey).delete("/webhooks/{id}", webhookId).then().statusCode(409);
        as(adminKey).queryParam("confirm", "true").delete("/automations/{id}", id).then().statusCode(204);
        as(adminKey).get("/automations/{id}", id).then().statusCode(404);
    }

    @Test
    void aMissingNameIsA422() {
        Map<String, Object> automation = new HashMap<>(Api.automation("x", Api.projectScope(team, "p"), "LINK_ARTIFACT", null,
                webhookId, Map.of()));
        automation.remove("name");
        as(adminKey).body(automation).post("/automations").then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "name")));
        as(PlatformTestResources.ADMIN_KEY).get("/automations/{id}", "not-a-uuid").then().statusCode(422);
    }
}
