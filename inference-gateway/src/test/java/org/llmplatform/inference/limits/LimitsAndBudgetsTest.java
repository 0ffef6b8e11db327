package org.llmplatform.inference.limits;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.chat.Callers;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.inference.upstream.FakeVllmServer;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * Limits and budgets set through {@code /v1/limits} (docs/inference-gateway.md#limits-and-budgets): per project and
 * per key, refused in each API's error shape with OpenAI's headers, counted in the database every replica shares.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@QuarkusTestResource(FakeVllmServer.class)
class LimitsAndBudgetsTest {

    private static final String RESET = "\\d+(ms|s)|\\d+m\\d+s";
    private static final String CHAT = Callers.onceUponATime("\"temperature\":0,\"max_tokens\":2");

    @Inject
    Pool pool;

    @Inject
    GatewayConfig config;

    /** A team with an admin and a member, each with a key; the roles are set before either key is used. */
    private record Team(String name, Callers admin, Callers member) {

        static Team fresh() {
            Callers admin = Callers.fresh("limits-admin");
            Callers member = Callers.fresh("limits-member");
            String name = TestIdentities.unique("limits");
            TestIdentities.team(name, member.user);
            TestIdentities.teamAdmin(name, admin.user);
            return new Team(name, admin, member);
        }

        String project(String name) {
            return this.name + "/" + name;
        }
    }

    private static RequestSpecification as(Callers caller, String project) {
        return caller.request().header("Compat-Project", project);
    }

    private static Response setLimits(Callers caller, String project, String limits) {
        return caller.request().queryParam("project", project).body(limits).put("/v1/limits");
    }

    private static Response setKeyLimits(Callers caller, String project, String keyId, String limits) {
        return caller.request().queryParam("project", project).body(limits).put("/v1/limits/keys/" + keyId);
    }

    /** Two requests counted in one UTC minute: none starts in a minute's last seconds. */
    private static void awayFromAMinutesEnd() throws InterruptedException {
        long second = Instant.now().getEpochSecond() % 60;
        if (second > 45) {
            Thread.sleep((61 - second) * 1000);
        }
    }

    @Test
    void aProjectsRequestsPerMinuteRefuseEveryApiWithOpenAisHeadersAndErrorShape() throws Exception {
        Team team = Team.fresh();
        List<Api> apis = List.of(
                new Api("chat", "/v1/chat/completions", CHAT),
                new Api("completions", "/v1/completions", "{\"model\":\"stories260K\",\"prompt\":\"Once\",\"max_tokens\":2}"),
                new Api("embeddings", "/v1/embeddings", "{\"model\":\"stories260K\",\"input\":\"Once upon a time\"}"),
                new Api("responses", "/v1/responses", "{\"model\":\"stories260K\",\"input\":\"Once\",\"max_output_tokens\":2}"),
                new Api("relayed", "/v1/chat/completions",
                        "{\"model\":\"upstream-small\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"));
        awayFromAMinutesEnd();
        for (Api api : apis) {
            String project = team.project(api.name());
            setLimits(team.admin(), project, "{\"requests_per_minute\":1}").then().statusCode(200)
                    .body("requests_per_minute", equalTo(1)).body("tokens_per_minute", nullValue());
            as(team.member(), project).body(api.body()).post(api.path()).then().statusCode(200)
                    .header("x-ratelimit-limit-requests", "1")
                    .header("x-ratelimit-remaining-requests", "0")
                    .header("x-ratelimit-reset-requests", matchesPattern(RESET))
                    .header("x-ratelimit-limit-tokens", nullValue());
            Response refused = as(team.member(), project).body(api.body()).post(api.path());
            refused.then().statusCode(429)
                    .contentType(ContentType.JSON)
                    .header("x-ratelimit-limit-requests", "1")
                    .header("x-ratelimit-remaining-requests", "0")
                    .header("x-ratelimit-reset-requests", matchesPattern(RESET))
                    .body("error.type", equalTo("requests"))
                    .body("error.code", equalTo("rate_limit_exceeded"))
                    .body("error.param", nullValue())
                    .body("error.message", containsString("Rate limit reached for requests per min (RPM) on project `"
                            + project + "`: Limit 1, Used 1."));
            long retryAfter = Long.parseLong(refused.header("Retry-After"));
            assertTrue(retryAfter >= 1 && retryAfter <= 60, api.name() + ": Retry-After " + retryAfter);
        }
    }

    private record Api(String name, String path, String body) {
    }

    @Test
    void aKeysTokensPerMinuteRefuseThatKeyOnlyAndItsUseIsReported() throws Exception {
        Team team = Team.fresh();
        String project = team.project("keyed");
        String memberKey = TestIdentities.keyId(team.member().key);
        awayFromAMinutesEnd();
        setKeyLimits(team.admin(), project, memberKey, "{\"tokens_per_minute\":5,\"requests_per_minute\":100}")
                .then().statusCode(200).body("tokens_per_minute", equalTo(5));
        int tokens = as(team.member(), project).body(CHAT).post("/v1/chat/completions").then().statusCode(200)
                .header("x-ratelimit-limit-tokens", "5")
                .header("x-ratelimit-remaining-tokens", "5")
                .header("x-ratelimit-limit-requests", "100")
                .header("x-ratelimit-remaining-requests", "99")
                .extract().path("usage.total_tokens");
        assertTrue(tokens >= 5, "one request spends the key's tokens: " + tokens);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> as(team.member(), project).body(CHAT)
                .post("/v1/chat/completions").then().statusCode(429)
                .header("x-ratelimit-remaining-tokens", "0")
                .header("x-ratelimit-reset-tokens", matchesPattern(RESET))
                .body("error.type", equalTo("tokens"))
                .body("error.code", equalTo("rate_limit_exceeded"))
                .body("error.message", containsString("Rate limit reached for tokens per min (TPM) on API key `"
                        + memberKey + "` in project `" + project + "`: Limit 5, Used ")));
        as(team.admin(), project).body(CHAT).post("/v1/chat/completions").then().statusCode(200)
                .header("x-ratelimit-limit-tokens", nullValue());
        team.member().request().queryParam("project", project).get("/v1/limits").then().statusCode(200)
                .body("project", equalTo(project))
                .body("may_change", equalTo(false))
                .body("limits.set", nullValue())
                .body("keys[0].api_key_id", equalTo(memberKey))
                .body("keys[0].user", equalTo(team.member().user))
                .body("keys[0].set.tokens_per_minute", equalTo(5))
                .body("keys[0].use.tokens_this_minute", greaterThanOrEqualTo(tokens));
    }

    @Test
    void aMonthlyBudgetSpentIsInsufficientQuotaUntilTheMonthEnds() {
        Team team = Team.fresh();
        String project = team.project("budget");
        setLimits(team.admin(), project, "{\"tokens_per_month\":3}").then().statusCode(200);
        int tokens = as(team.member(), project).body(CHAT).post("/v1/chat/completions").then().statusCode(200)
                .extract().path("usage.total_tokens");
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Response refused = as(team.member(), project).body("{\"model\":\"stories260K\",\"input\":\"Once\"}")
                    .post("/v1/responses");
            refused.then().statusCode(429)
                    .body("error.type", equalTo("insufficient_quota"))
                    .body("error.code", equalTo("insufficient_quota"))
                    .body("error.message", containsString("You exceeded your current quota: project `" + project + "` used "));
            Instant monthEnd = LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1).plusMonths(1).atStartOfDay()
                    .toInstant(ZoneOffset.UTC);
            long expected = Duration.between(Instant.now(), monthEnd).toSeconds();
            assertTrue(Math.abs(Long.parseLong(refused.header("Retry-After")) - expected) <= 5,
                    "Retry-After " + refused.header("Retry-After") + " is the time to the month's end, " + expected);
        });
        team.admin().request().queryParam("project", project).get("/v1/limits").then().statusCode(200)
                .body("may_change", equalTo(true))
                .body("limits.set.tokens_per_month", equalTo(3))
                .body("limits.in_force.tokens_per_month", equalTo(3))
                .body("limits.use.tokens_this_month", greaterThanOrEqualTo(tokens));
        team.admin().request().queryParam("project", project).delete("/v1/limits").then().statusCode(204);
        as(team.member(), project).body(CHAT).post("/v1/chat/completions").then().statusCode(200);
    }

    @Test
    void onlyATeamsAdminChangesItsLimitsAndMembersReadThem() {
        Team team = Team.fresh();
        String project = team.project("guarded");
        Callers stranger = Callers.fresh("stranger");
        setLimits(team.member(), project, "{\"requests_per_minute\":1}").then().statusCode(403)
                .body("error.message", equalTo("Only an admin of team '" + team.name() + "' may change its limits"));
        setLimits(stranger, project, "{\"requests_per_minute\":1}").then().statusCode(403);
        stranger.request().queryParam("project", project).get("/v1/limits").then().statusCode(403);
        team.member().request().queryParam("project", project).delete("/v1/limits").then().statusCode(403);
        team.member().request().queryParam("project", project).get("/v1/limits").then().statusCode(200)
                .body("limits.set", nullValue());
        Callers solo = Callers.fresh("solo");
        setLimits(solo, solo.user + "/own", "{\"requests_per_minute\":5}").then().statusCode(200);
    }

    @Test
    void invalidLimitsAreRefusedNamingTheField() {
        Team team = Team.fresh();
        String project = team.project("checked");
        setLimits(team.admin(), project, "{\"requests_per_minute\":-1}").then().statusCode(422)
                .body("error.param", equalTo("requests_per_minute"))
                .body("detail[0].loc", equalTo(List.of("body", "requests_per_minute")));
        setLimits(team.admin(), project, "{\"tokens_per_month\":\"lots\"}").then().statusCode(422)
                .body("error.param", equalTo("tokens_per_month"));
        setLimits(team.admin(), project, "{\"tokens_per_minute\":1.5}").then().statusCode(422)
                .body("error.param", equalTo("tokens_per_minute"));
        setLimits(team.admin(), project, "{\"rpm\":10}").then().statusCode(422)
                .body("error.param", equalTo("rpm"));
        setLimits(team.admin(), project, "[1]").then().statusCode(422);
        team.admin().request().body("{}").put("/v1/limits").then().statusCode(422)
                .body("error.param", equalTo("project"));
        setKeyLimits(team.admin(), project, "no-such-key", "{\"requests_per_minute\":1}").then().statusCode(404);
        team.admin().request().queryParam("project", project).delete("/v1/limits").then().statusCode(404);
    }

    /**
     * Two replicas, each with its own store and its own copy of the limits, counting in the one database: 40 requests
     * at once against a limit of 25 admit exactly 25 between them.
     */
    @Test
    void twoReplicasAdmitNoMoreThanOneLimitBetweenThem() throws Exception {
        String project = TestIdentities.unique("replicas") + "/shared";
        LimitsStore writer = new LimitsStore(pool);
        writer.put(project, LimitsStore.PROJECT, new Limits(25L, null, null, null), "test", Instant.now())
                .await().atMost(Duration.ofSeconds(10));
        RateLimits first = new RateLimits(new LimitsStore(pool), config);
        RateLimits second = new RateLimits(new LimitsStore(pool), config);
        first.reload().await().atMost(Duration.ofSeconds(10));
        second.reload().await().atMost(Duration.ofSeconds(10));
        awayFromAMinutesEnd();
        List<CompletableFuture<Boolean>> answers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            RateLimits replica = i % 2 == 0 ? first : second;
            answers.add(replica.admit(project, null).map(admitted -> true)
                    .onFailure(OpenAiException.class).recoverWithItem(false)
                    .subscribeAsCompletionStage());
        }
        long admitted = 0;
        for (CompletableFuture<Boolean> answer : answers) {
            admitted += answer.get(30, TimeUnit.SECONDS) ? 1 : 0;
        }
        assertEquals(25, admitted);
    }

    /**
     * Under a large limit each replica admits from a share it reserved, so that 3,000 requests through two replicas
     * take a few dozen statements, not one each; what they used is written when they flush, exactly, and the shares
     * they reserved between them stay within the limit.
     */
    @Test
    void underALargeLimitReplicasAdmitFromSharesAndWriteTheirUseExactly() throws Exception {
        String project = TestIdentities.unique("shares") + "/shared";
        long limit = 100_000;
        new LimitsStore(pool).put(project, LimitsStore.PROJECT, new Limits(limit, limit * 10, null, null), "test",
                Instant.now()).await().atMost(Duration.ofSeconds(10));
        CountingStore firstStore = new CountingStore(pool);
        CountingStore secondStore = new CountingStore(pool);
        RateLimits first = new RateLimits(firstStore, config);
        RateLimits second = new RateLimits(secondStore, config);
        first.reload().await().atMost(Duration.ofSeconds(10));
        second.reload().await().atMost(Duration.ofSeconds(10));
        awayFromAMinutesEnd();
        int requests = 3_000;
        List<CompletableFuture<LimitUse>> answers = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            answers.add((i % 2 == 0 ? first : second).admit(project, null).subscribeAsCompletionStage());
        }
        for (CompletableFuture<LimitUse> answer : answers) {
            answer.get(30, TimeUnit.SECONDS).charge(7);
        }
        first.flush().await().atMost(Duration.ofSeconds(10));
        second.flush().await().atMost(Duration.ofSeconds(10));
        int statements = firstStore.settlements + secondStore.settlements;
        assertTrue(statements <= 40, "settlements for " + requests + " requests: " + statements);
        Row minute = pool.preparedQuery("SELECT requests, tokens, granted_requests, granted_tokens FROM inference.limit_use"
                + " WHERE project_id = $1 AND window_kind = 'minute'").execute(Tuple.of(project))
                .await().atMost(Duration.ofSeconds(10)).iterator().next();
        assertEquals(requests, minute.getLong("requests"));
        assertEquals(requests * 7L, minute.getLong("tokens"));
        assertTrue(minute.getLong("granted_requests") >= requests && minute.getLong("granted_requests") <= limit,
                "reserved " + minute.getLong("granted_requests"));
        assertTrue(minute.getLong("granted_tokens") >= requests * 7L, "reserved tokens " + minute.getLong("granted_tokens"));
    }

    /** A store that counts the settlements a replica makes. */
    private static final class CountingStore extends LimitsStore {

        volatile int settlements;

        CountingStore(Pool pool) {
            super(pool);
        }

        @Override
        public Uni<List<Settled>> settle(List<Settlement> settlements) {
            this.settlements++;
            return super.settle(settlements);
        }
    }
}
