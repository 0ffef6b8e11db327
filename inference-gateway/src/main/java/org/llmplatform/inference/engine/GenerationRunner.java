package org.llmplatform.inference.engine;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.MultiEmitter;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.llama.GeneratedToken;
import org.llmplatform.llama.Generation;
import org.llmplatform.llama.LlamaEngine;

/**
 * Runs the choices of a plan on {@link EngineWorkers}, a few tokens per turn, and emits their tokens
 * as they come. Cancelling the subscription (a client that went away) stops the generations.
 */
@Singleton
public class GenerationRunner {

    private final EngineWorkers workers;
    private final int tokensPerTurn;

    public GenerationRunner(EngineWorkers workers, GatewayConfig config) {
        this.workers = workers;
        this.tokensPerTurn = Math.max(1, config.engine().tokensPerTurn());
    }

    public Multi<ChoiceStep> run(CompletionPlan plan) {
        return Multi.createFrom().emitter(emitter -> {
            AtomicBoolean stopped = new AtomicBoolean();
            AtomicInteger running = new AtomicInteger(plan.choices());
            emitter.onTermination(() -> stopped.set(true));
            for (int index = 0; index < plan.choices(); index++) {
                Turn first = new Turn(plan, index, emitter, stopped, running);
                if (index == 0 && EngineWorkers.onWorker()) {
                    // subscribed on a worker (the request was accepted there): no hand-off before the first token
                    first.run();
                } else {
                    workers.submit(first);
                }
            }
        });
    }

    /** One choice's share of the pool; its session (KV cache) is allocated on the worker, not the event loop. */
    private final class Turn implements Runnable {
        private final CompletionPlan plan;
        private final int index;
        private final MultiEmitter<? super ChoiceStep> emitter;
        private final AtomicBoolean stopped;
        private final AtomicInteger running;
        private Generation generation;

        Turn(CompletionPlan plan, int index, MultiEmitter<? super ChoiceStep> emitter, AtomicBoolean stopped,
                AtomicInteger running) {
            this.plan = plan;
            this.index = index;
            this.emitter = emitter;
            this.stopped = stopped;
            this.running = running;
        }

        @Override
        public void run() {
            try {
                if (generation == null) {
                    generation = plan.model().engine().generate(plan.prompt(), plan.sampling(),
                            LlamaEngine.randomFor(plan.seed(), index));
                }
                // a turn ends after a few tokens only when another generation waits for the worker: handing the
                // turn to the queue when nobody waits would cost a thread wake-up per few tokens for nothing
                for (int i = 0; (i < tokensPerTurn || !workers.othersWaiting()) && !generation.finished() && !stopped.get(); i++) {
                    GeneratedToken token = generation.next();
                    emitter.emit(new ChoiceStep(index, token, generation.finishReason(), generation.stopReason(),
                            generation.completionTokens()));
                }
                if (generation.finished()) {
                    if (running.decrementAndGet() == 0) {
                        emitter.complete();
                    }
                } else if (!stopped.get()) {
                    workers.submit(this);
                }
            } catch (RuntimeException e) {
                emitter.fail(e);
            }
        }
    }
}
