package org.llmplatform.tracing.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.calls.CallQueryStore.QueriedCall;

/** The cursor stream reads only what its subscriber asks for, and gives its connection back when cancelled. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallQueryStoreTest {

    @Inject
    CallStore calls;

    @Inject
    CallQueryStore queries;

    @Test
    void aStreamDeliversOnlyWhatIsRequestedAndReleasesItsConnectionOnCancel() throws InterruptedException {
        String project = "store-" + UUID.randomUUID() + "/p";
        OffsetDateTime start = OffsetDateTime.of(2025, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
        List<CallStartRow> starts = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            starts.add(CallStartRow.serverMade(project, String.format("c%04d", i), "t", "op", start.plusSeconds(i), "{}",
                    "{}", "user"));
        }
        calls.writeBatch(starts, List.of()).await().atMost(Duration.ofSeconds(30));
        CallsQuery query = CallsQuery.in(project).build();

        // More cancelled streams than the pool has connections: each must give its connection back.
        for (int round = 0; round < 30; round++) {
            AssertSubscriber<QueriedCall> subscriber = queries.stream(query).subscribe()
                    .withSubscriber(AssertSubscriber.create(5));
            subscriber.awaitItems(5, Duration.ofSeconds(10));
            if (round == 0) {
                // Time for any unrequested row to arrive, had the stream ignored demand.
                Thread.sleep(300);
            }
            assertEquals(5, subscriber.getItems().size());
            assertEquals("c0000", subscriber.getItems().get(0).call().id());
            subscriber.cancel();
        }
        AssertSubscriber<QueriedCall> all = queries.stream(query).subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        all.awaitCompletion(Duration.ofSeconds(30));
        assertEquals(1000, all.getItems().size());
    }
}
