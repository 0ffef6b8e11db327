package org.llmplatform.automation.delivery;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.llmplatform.automation.store.DeliveryStore;
import org.llmplatform.automation.store.DeliveryStore.Finished;

/**
 * Writes finished attempts in group commits: while one write runs, the attempts finishing meanwhile queue
 * up and go together in the next, so under load one transaction records many attempts, and alone an
 * attempt is written at once. Each caller learns when its own attempt is durable.
 */
@ApplicationScoped
public class AttemptRecorder {

    private static final int LARGEST_WRITE = 500;

    private final DeliveryStore store;
    private final Queue<Waiting> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();

    public AttemptRecorder(DeliveryStore store) {
        this.store = store;
    }

    public Uni<Void> record(Finished finished) {
        return Uni.createFrom().emitter(emitter -> {
            queue.add(new Waiting(finished, emitter));
            writeQueued();
        });
    }

    private void writeQueued() {
        if (!writing.compareAndSet(false, true)) {
            return;
        }
        List<Waiting> batch = new ArrayList<>();
        for (Waiting next; batch.size() < LARGEST_WRITE && (next = queue.poll()) != null; ) {
            batch.add(next);
        }
        if (batch.isEmpty()) {
            writing.set(false);
            // An attempt queued after the poll above but before the flag dropped found the flag still set.
            if (!queue.isEmpty()) {
                writeQueued();
            }
            return;
        }
        store.finishAll(batch.stream().map(Waiting::finished).toList()).subscribe().with(
                done -> {
                    batch.forEach(waiting -> waiting.emitter().complete(null));
                    writing.set(false);
                    writeQueued();
                },
                failure -> {
                    batch.forEach(waiting -> waiting.emitter().fail(failure));
                    writing.set(false);
                    writeQueued();
                });
    }

    private record Waiting(Finished finished, UniEmitter<? super Void> emitter) {
    }
}
