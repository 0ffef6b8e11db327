package org.llmplatform.support.body;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.support.body.BodyChecks.Limit;

class BodyScanTest {

    @BodyChecks(projectIds = {"project_id", "batch[].req.start.project_id"}, refs = "refs[]", entities = "scope.entity",
            limits = {@Limit(field = "call_ids[]", max = 3), @Limit(field = "batch[].req.start.id", max = 3)})
    private void checked() {
    }

    @LimitSet({@Limit(field = "id", max = 3), @Limit(field = "op.name", max = 2)})
    private static final class CallLimits {
    }

    private static final class NoSet {
    }

    @BodyChecks(limitSets = {@BodyChecks.LimitsAt(set = CallLimits.class, under = "start"),
            @BodyChecks.LimitsAt(set = CallLimits.class, under = "batch[].req"), @BodyChecks.LimitsAt(set = CallLimits.class)},
            limits = @Limit(field = "note", max = 1))
    private void withSets() {
    }

    @BodyChecks(limitSets = @BodyChecks.LimitsAt(set = NoSet.class))
    private void withAClassThatIsNoSet() {
    }

    private static BodyScan.Found scanWithSets(String body) throws NoSuchMethodException {
        BodyChecks checks = BodyScanTest.class.getDeclaredMethod("withSets").getAnnotation(BodyChecks.class);
        return new BodyScan(checks).scan(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aLimitSetAppliesUnderEachOfItsPrefixes() throws Exception {
        assertEquals(List.of("body", "start", "id"), scanWithSets("{\"start\": {\"id\": \"abcd\"}}").tooLong());
        assertEquals(List.of("body", "batch", 1, "req", "op", "name"),
                scanWithSets("{\"batch\": [{\"req\": {\"id\": \"abc\"}}, {\"req\": {\"op\": {\"name\": \"abc\"}}}]}").tooLong());
        assertEquals(List.of("body", "id"), scanWithSets("{\"id\": \"abcd\"}").tooLong());
        BodyScan.Found atTheLimits = scanWithSets("{\"start\": {\"id\": \"abc\", \"op\": {\"name\": \"ab\"}}, \"id\": \"abc\","
                + " \"batch\": [{\"req\": {\"id\": \"abc\"}}], \"note\": \"n\"}");
        assertNull(atTheLimits.tooLong());
    }

    @Test
    void theLimitsBesideTheSetsStillApply() throws Exception {
        BodyScan.Found found = scanWithSets("{\"note\": \"no\"}");
        assertEquals(List.of("body", "note"), found.tooLong());
        assertEquals(1, found.tooLongMax());
    }

    @Test
    void aSetClassWithoutLimitSetIsRefusedWhenCompiled() throws Exception {
        BodyChecks checks = BodyScanTest.class.getDeclaredMethod("withAClassThatIsNoSet").getAnnotation(BodyChecks.class);
        assertThrows(IllegalArgumentException.class, () -> new BodyScan(checks));
    }

    private static BodyScan.Found scan(String body) throws NoSuchMethodException {
        BodyChecks checks = BodyScanTest.class.getDeclaredMethod("checked").getAnnotation(BodyChecks.class);
        return new BodyScan(checks).scan(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
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
