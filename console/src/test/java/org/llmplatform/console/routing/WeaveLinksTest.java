package org.llmplatform.console.routing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = EchoUpstreams.class, restrictToAnnotatedClass = true)
class WeaveLinksTest {

    private static final String CALL = "019ae171-7f32-7c96-8b42-931a32f900b7";

    @Test
    void theLinkTheWeaveSdksPrintOpensTheConsolesPageForTheCall() {
        for (String link : new String[] {"/dev/my-app/r/call/" + CALL, "/dev/my-app/weave/r/call/" + CALL, "/dev/my-app/weave/calls/" + CALL}) {
            given().redirects().follow(false).get(link).then().statusCode(302)
                    .header("Location", equalTo("/#/p/dev/my-app/calls/" + CALL));
        }
    }

    @Test
    void theObjectAndProjectLinksThePythonSdkPrintsOpenTheirPages() {
        given().redirects().follow(false).get("/dev/my-app/weave/objects/capitals/versions/abc123").then().statusCode(302)
                .header("Location", equalTo("/#/p/dev/my-app/objects/capitals?digest=abc123"));
        given().redirects().follow(false).get("/dev/my-app/weave/ops/answerQuestion/versions/def456").then().statusCode(302)
                .header("Location", equalTo("/#/p/dev/my-app/objects/answerQuestion?digest=def456"));
        given().redirects().follow(false).get("/dev/my-app/weave").then().statusCode(302)
                .header("Location", equalTo("/#/p/dev/my-app/calls"));
    }

    @Test
    void anEncodedProjectNameReachesThePageAsItCame() {
        given().redirects().follow(false).urlEncodingEnabled(false).get("/dev/story%20app/r/call/" + CALL).then().statusCode(302)
                .header("Location", equalTo("/#/p/dev/story%20app/calls/" + CALL));
    }

    @Test
    void anEntityNamedLikeAnApiPrefixStillGetsItsLinkNotTheRelay() {
        given().redirects().follow(false).get("/calls/app/r/call/" + CALL).then().statusCode(302)
                .header("Location", equalTo("/#/p/calls/app/calls/" + CALL));
        given().redirects().follow(false).get("/v1/app/weave/r/call/" + CALL).then().statusCode(302)
                .header("Location", equalTo("/#/p/v1/app/calls/" + CALL));
    }

    @Test
    void everyOtherPathAndMethodIsLeftToTheRelayAndThePages() {
        given().body("{}").post("/calls/stream_query").then().statusCode(200);
        // the pages take GET and HEAD only
        given().redirects().follow(false).body("{}").post("/dev/my-app/r/call/" + CALL).then().statusCode(405);
        given().get("/v1/preview/training-jobs").then().body("service", equalTo("training"));
        given().redirects().follow(false).get("/dev/my-app/r/call").then().statusCode(404);
    }
}
