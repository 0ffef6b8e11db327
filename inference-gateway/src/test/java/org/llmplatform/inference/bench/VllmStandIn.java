package org.llmplatform.inference.bench;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The benchmark's upstreams, run as their own JVM ({@link BenchUpstream} starts it) as a real upstream
 * is another process: two vLLM-format servers on their own event loops.
 * <ul>
 * <li>{@code batching}: a stand-in for a fast vLLM server. Continuous batching: at most
 * {@code maxNumSeqs} sequences run; each engine step takes {@code stepMicros} and gives every running
 * sequence one token (a new sequence's first step is its prompt's prefill, which samples its first
 * token, as vLLM's does); sequences that arrive while the batch is full wait in a queue and join at
 * the next step with a free slot. Steps follow one another on the clock whatever the event loop does
 * with their output, as vLLM's engine core runs its GPU steps in a process of its own while the API
 * process streams: a step's chunks are written when the loop gets to them, and a step whose handling
 * ran past the next step's end is followed by that end at once. A stream gets each step's chunk when that step ends, a non-streamed
 * request its answer after its last step. The answers are the canned ones below: 10 completion tokens
 * non-streamed, 7 streamed (6 text pieces and the end of sequence).</li>
 * <li>{@code canned}: answers at once with the same bytes, no engine at all. Against it, saturation
 * measures only how many exchanges the gateway's CPU can relay: its ceiling, not a deployment.</li>
 * </ul>
 * Prints {@code LISTENING <canned port> <batching port>} once both listen; exits when its standard
 * input closes (the benchmark JVM ended, however it ended).
 * Arguments: the batching server's model name, the canned one's, max_num_seqs, step time in microseconds.
 */
public final class VllmStandIn {

    static final int NON_STREAMED_TOKENS = 10;
    static final String[] STREAMED_PIECES = {"Hello", " there", ", how", " can", " I", " help?"};
    static final int STREAMED_TOKENS = STREAMED_PIECES.length + 1;

    private final String model;
    private final Buffer completion;
    /** Index {@code step - 1}: what a stream gets when its step {@code step} ends, without and with the usage chunk. */
    private final Buffer[] streamSteps = new Buffer[STREAMED_TOKENS];
    private final Buffer[] streamStepsWithUsage = new Buffer[STREAMED_TOKENS];
    private final Buffer cannedStream = Buffer.buffer();
    private final Buffer cannedStreamWithUsage = Buffer.buffer();

    private VllmStandIn(String model) {
        this.model = model;
        this.completion = Buffer.buffer("{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion\",\"created\":1,"
                + "\"model\":\"" + model + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":\"Hello there, how can I help you today?\"},\"logprobs\":null,\"finish_reason\":\"stop\","
                + "\"stop_reason\":null}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":" + NON_STREAMED_TOKENS
                + ",\"total_tokens\":" + (12 + NON_STREAMED_TOKENS) + "}}");
        for (int step = 1; step <= STREAMED_TOKENS; step++) {
            streamSteps[step - 1] = streamStep(step, false);
            streamStepsWithUsage[step - 1] = streamStep(step, true);
            cannedStream.appendBuffer(streamSteps[step - 1]);
            cannedStreamWithUsage.appendBuffer(streamStepsWithUsage[step - 1]);
        }
    }

    public static void main(String[] args) throws Exception {
        VllmStandIn batching = new VllmStandIn(args[0]);
        VllmStandIn canned = new VllmStandIn(args[1]);
        int maxNumSeqs = Integer.parseInt(args[2]);
        long stepNanos = TimeUnit.MICROSECONDS.toNanos(Long.parseLong(args[3]));
        int cannedPort = canned.listen(Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1)), canned::answerAtOnce);
        Vertx batchingVertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        Context loop = batchingVertx.getOrCreateContext();
        Engine engine = batching.new Engine(loop, maxNumSeqs, stepNanos);
        int batchingPort = batching.listen(batchingVertx,
                request -> loop.runOnContext(ignored -> engine.accept(request)));
        engine.start();
        System.out.println("LISTENING " + cannedPort + " " + batchingPort);
        System.out.flush();
        try {
            while (System.in.read() >= 0) {
                // the benchmark JVM keeps this pipe open while it needs us
            }
        } catch (IOException ignored) {
            // the pipe broke: same as closed
        }
        Runtime.getRuntime().halt(0);
    }

    private int listen(Vertx vertx, RequestHandler handler) throws Exception {
        return vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true))
                .requestHandler(request -> request.body().onSuccess(body -> {
                    String text = body.toString();
                    handler.handle(new Request(request.response(), text.contains("\"stream\":true"),
                            text.contains("\"include_usage\":true")));
                }))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .actualPort();
    }

    private void answerAtOnce(Request request) {
        if (request.stream()) {
            request.response().putHeader("Content-Type", "text/event-stream")
                    .end((request.includeUsage() ? cannedStreamWithUsage : cannedStream).copy());
        } else {
            request.response().putHeader("Content-Type", "application/json").end(completion.copy());
        }
    }

    /** What vLLM streams when step {@code step} (1-based) of a streamed sequence ends. */
    private Buffer streamStep(int step, boolean includeUsage) {
        StringBuilder events = new StringBuilder();
        if (step == 1) {
            events.append(chunk("{\"role\":\"assistant\",\"content\":\"\"}", "null"));
        }
        if (step <= STREAMED_PIECES.length) {
            events.append(chunk("{\"content\":\"" + STREAMED_PIECES[step - 1] + "\"}", "null"));
        } else {
            events.append(chunk("{}", "\"stop\""));
            if (includeUsage) {
                events.append("data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1,")
                        .append("\"model\":\"").append(model).append("\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,")
                        .append("\"completion_tokens\":").append(STREAMED_TOKENS).append(",\"total_tokens\":")
                        .append(12 + STREAMED_TOKENS).append("}}\n\n");
            }
            events.append("data: [DONE]\n\n");
        }
        return Buffer.buffer(events.toString());
    }

    private String chunk(String delta, String finishReason) {
        return "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"" + model
                + "\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"logprobs\":null,\"finish_reason\":"
                + finishReason + "}]}\n\n";
    }

    private interface RequestHandler {
        void handle(Request request);
    }

    private record Request(HttpServerResponse response, boolean stream, boolean includeUsage) {
    }

    /**
     * The continuous-batching loop. Its state lives on the server's event loop; a clock thread only
     * marks the end of each step (steps follow one another without a gap while there is work, as the
     * GPU's do, and the clock sleeps while there is none).
     */
    private final class Engine {
        private final Context loop;
        private final int maxNumSeqs;
        private final long stepNanos;
        private final ArrayDeque<Sequence> waiting = new ArrayDeque<>();
        private final List<Sequence> running = new ArrayList<>();
        private final AtomicBoolean busy = new AtomicBoolean();
        private final Thread clock = new Thread(this::tick, "engine-clock");

        Engine(Context loop, int maxNumSeqs, long stepNanos) {
            this.loop = loop;
            this.maxNumSeqs = maxNumSeqs;
            this.stepNanos = stepNanos;
            clock.setDaemon(true);
        }

        void start() {
            clock.start();
        }

        /** On the loop: a new request waits for a slot; an idle engine starts a step for it at once. */
        void accept(Request request) {
            Sequence sequence = new Sequence(request);
            if (request.stream()) {
                request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            }
            waiting.add(sequence);
            if (!busy.get()) {
                schedule();
                busy.set(true);
                LockSupport.unpark(clock);
            }
        }

        /** On the loop, when a step ended: every running sequence got a token. */
        private void stepEnded() {
            for (Sequence sequence : running) {
                sequence.advance();
            }
            running.removeIf(Sequence::finished);
            schedule();
            if (running.isEmpty()) {
                busy.set(false);
            }
        }

        /** The next step's batch: the running sequences plus waiting ones while there is room. */
        private void schedule() {
            while (running.size() < maxNumSeqs && !waiting.isEmpty()) {
                running.add(waiting.poll());
            }
        }

        /** Handles a step's end on the loop and waits for it, so no step ends before the previous one was handled. */
        private void endStep() {
            CompletableFuture<Void> handled = new CompletableFuture<>();
            loop.runOnContext(ignored -> {
                try {
                    stepEnded();
                } finally {
                    handled.complete(null);
                }
            });
            handled.join();
        }

        private void tick() {
            while (true) {
                while (!busy.get()) {
                    LockSupport.park(this);
                }
                long next = System.nanoTime();
                while (busy.get()) {
                    // the GPU's steps follow one another whatever the API side does with their output: a step
                    // ends one step time after the previous one ended, or at once when handling that one took longer
                    next = Math.max(next + stepNanos, System.nanoTime());
                    for (long wait = next - System.nanoTime(); wait > 0; wait = next - System.nanoTime()) {
                        LockSupport.parkNanos(wait);
                    }
                    endStep();
                }
            }
        }
    }

    private final class Sequence {
        private final Request request;
        private int tokens;
        private boolean aborted;

        Sequence(Request request) {
            this.request = request;
        }

        /** One more token; a sequence whose client went away is aborted, as vLLM aborts it. */
        void advance() {
            tokens++;
            HttpServerResponse response = request.response();
            if (response.closed()) {
                aborted = true;
            } else if (request.stream()) {
                Buffer events = (request.includeUsage() ? streamStepsWithUsage : streamSteps)[tokens - 1];
                if (finished()) {
                    response.end(events.copy());
                } else {
                    response.write(events.copy());
                }
            } else if (finished()) {
                response.putHeader("Content-Type", "application/json").end(completion.copy());
            }
        }

        boolean finished() {
            return aborted || tokens >= (request.stream() ? STREAMED_TOKENS : NON_STREAMED_TOKENS);
        }
    }
}
