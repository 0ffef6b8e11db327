package org.llmplatform.support.body;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.support.body.BodyChecks.Limit;

class BodyScanTest {

    @BodyChecks(projectIds = {"project_id", "batch[].req.start.project_id"}, refs = "refs[]", entities = "scope.entity",
            limits = {@Limit(field = "call_ids[]", max = 3), @Limit(field = "batch[].req.start.id", max = 3)})
    private void checked() {
    }

    private static BodyScan.Found scan(String body) throws NoSuchMethodException {
        BodyChecks checks = BodyScanTest.class.getDeclaredMethod("checked").getAnnotation(BodyChecks.class);
        return new BodyScan(checks).scan(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void projectsAreFoundAtTheirPathsOnly() throws Exception {
        BodyScan.Found found = scan("{\"inputs\": {\"project_id\": \"x/y\"}, \"project_id\": \"a/b\", \"batch\": ["
                + "{\"req\": {\"start\": {\"project_id\": \"c/d\", \"inputs\": {\"project_id\": \"z/z\"}}}},"
                + "{\"req\": {\"start\": {\"project_id\": \"e/f\"}}}], \"refs\": [\"weave:///g/h/object/o:1\", \"not-a-ref\"],"
                + " \"scope\": {\"entity\": \"team\"}}");
        assertEquals(List.of("a/b", "c/d", "e/f", "g/h"), found.projectIds());
        assertEquals(List.of("team"), found.entities());
        assertNull(found.tooLong());
    }

    @Test
    void theFirstValueOverItsLimitIsNamedByItsPath() throws Exception {
        BodyScan.Found found = scan("{\"call_ids\": [\"abc\", \"abcd\", \"abcde\"], \"batch\": [{\"req\": {\"start\": {\"id\": \"long\"}}}]}");
        assertEquals(List.of("body", "call_ids", 1), found.tooLong());
        assertEquals(3, found.tooLongMax());
    }

    @Test
    void theProjectsBeforeASyntaxErrorAreStillFound() throws Exception {
        BodyScan.Found found = scan("{\"project_id\": \"a/b\", \"call_ids\": [");
        assertEquals(List.of("a/b"), found.projectIds());
    }

    @Test
    void aBodyOfAnotherShapeFindsNothing() throws Exception {
        BodyScan.Found found = scan("[1, {\"project_id\": \"a/b\"}]");
        assertEquals(List.of(), found.projectIds());
        assertNull(found.tooLong());
    }
}
