package org.llmplatform.inference.upstream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.llmplatform.inference.http.StreamedBody;
import org.llmplatform.model.errors.OpenAiError;

/**
 * Relays an upstream SSE stream to the client as it comes: the first upstream read of a burst is written
 * at once, the reads that follow it in the same turn of the event loop together in one more write (a
 * server that writes every token apart costs one syscall per burst, not per token), reading pauses while
 * the client's buffer is full,
 * and a client that leaves resets the upstream request so the upstream stops generating. Events pass
 * as they came unless the model must be renamed or the usage chunk dropped; a stream that fails or ends
 * without {@code [DONE]} (a Responses API stream: without its last event) gets an in-band error.
 */
final class SseRelay implements StreamedBody {

    private static final String DONE = "data: [DONE]\n\n";
    private static final byte[] RESPONSE_FIELD = "\"response\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NO_USAGE_YET = "\"usage\":null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ERROR_EVENT = "\"type\":\"error\"".getBytes(StandardCharsets.US_ASCII);
    private static final List<byte[]> LAST_EVENTS = Stream.of("completed", "incomplete", "failed")
            .map(end -> ("\"response." + end + "\"").getBytes(StandardCharsets.US_ASCII)).toList();

    private final HttpClientResponse upstream;
    private final ObjectMapper json;
    private final String model;
    private final String ownModelField;
    private final byte[] ownModelFieldBytes;
    private final boolean renamed;
    /** The upstream's {@code "model":"…"} field, when a renamed event may be rewritten in its text; else null. */
    private final String upstreamModelField;
    private final boolean clientWantsUsage;
    /** Whether the stream is a Responses API stream ({@code event:} lines, usage in its last event, no {@code [DONE]}). */
    private final boolean responsesWire;
    private final UpstreamRouter.UsageSink usage;
    private final SseEvents events = new SseEvents();
    /** What the rest of a burst of upstream reads relayed; written in one go once the burst was read. */
    private final ByteArrayOutputStream unwritten = new ByteArrayOutputStream();
    private Context context;
    private boolean burst;
    private boolean done;
    private boolean finished;

    /**
     * {@code upstream}: a paused 2xx response; {@code model}: the public name the client asked for;
     * {@code upstreamModel}: the name the upstream serves it under.
     */
    SseRelay(HttpClientResponse upstream, ObjectMapper json, String model, String upstreamModel, UpstreamApi api,
            boolean clientWantsUsage, UpstreamRouter.UsageSink usage) {
        this.upstream = upstream;
        this.json = json;
        this.model = model;
        this.ownModelField = "\"model\":\"" + model + "\"";
        this.ownModelFieldBytes = ownModelField.getBytes(StandardCharsets.UTF_8);
        this.renamed = !model.equals(upstreamModel);
        this.upstreamModelField = renamed && plain(model) && plain(upstreamModel)
                ? "\"model\":\"" + upstreamModel + "\"" : null;
        this.clientWantsUsage = clientWantsUsage;
        this.responsesWire = api == UpstreamApi.RESPONSES;
        this.usage = usage;
    }

    @Override
    public void writeTo(Sink client) {
        context = Vertx.currentContext();
        client.whenClosed(() -> {
            synchronized (this) {
                finished = true;
            }
            upstream.request().reset();
        });
        upstream.handler(chunk -> relay(chunk, client));
        upstream.exceptionHandler(failure -> finish(client, "failed: " + failure.getMessage()));
        upstream.endHandler(ended -> finish(client, done ? null : "ended before it was complete"));
        upstream.resume();
    }

    private void relay(Buffer chunk, Sink client) {
        long relaying = System.nanoTime();
        byte[] bytes = chunk.getBytes();
        byte[] ours = responsesWire ? responsesEvents(bytes)
                : !renamed && events.passesAsIs(bytes, ownModelFieldBytes) ? bytes : translated(bytes);
        usage.relayed(System.nanoTime() - relaying);
        synchronized (this) {
            if (finished || ours.length == 0) {
                return;
            }
        }
        if (burst) {
            unwritten.writeBytes(ours);
            return;
        }
        // The first chunk of a burst goes out at once (the time to the first token); the chunks read after it
        // in the same turn of the event loop follow in one write, not a write and a flush each.
        write(client, ours);
        if (context != null) {
            burst = true;
            context.runOnContext(ignored -> endBurst(client));
        }
    }

    private void endBurst(Sink client) {
        burst = false;
        synchronized (this) {
            if (finished) {
                unwritten.reset();
                return;
            }
        }
        writeUnwritten(client);
    }

    private void writeUnwritten(Sink client) {
        if (unwritten.size() > 0) {
            byte[] rest = unwritten.toByteArray();
            unwritten.reset();
            write(client, rest);
        }
    }

    private void write(Sink client, byte[] bytes) {
        if (!client.write(bytes)) {
            upstream.pause();
            client.whenWritable(upstream::resume);
        }
    }

    private byte[] translated(byte[] chunk) {
        StringBuilder ours = new StringBuilder(chunk.length + 16);
        for (String payload : events.feed(chunk)) {
            if ("[DONE]".equals(payload)) {
                done = true;
                ours.append(DONE);
            } else {
                relayEvent(ours, payload);
            }
        }
        return ours.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A Responses API stream's events as they came, {@code event:} lines and all. Only the events that carry the
     * Response are read, and only when they may need it: the last (its usage; the end of the stream), any when the
     * model is renamed; and error events, which fail the request. The deltas between pass byte for byte.
     */
    private byte[] responsesEvents(byte[] chunk) {
        List<byte[]> whole = events.feedWhole(chunk);
        if (whole.size() == 1) {
            return responsesEvent(whole.get(0));
        }
        ByteArrayOutputStream ours = new ByteArrayOutputStream(chunk.length + 16);
        whole.forEach(event -> ours.writeBytes(responsesEvent(event)));
        return ours.toByteArray();
    }

    private byte[] responsesEvent(byte[] event) {
        boolean carriesResponse = SseEvents.contains(event, RESPONSE_FIELD);
        boolean error = SseEvents.contains(event, ERROR_EVENT);
        boolean counted = carriesResponse && (!SseEvents.contains(event, NO_USAGE_YET)
                || LAST_EVENTS.stream().anyMatch(last -> SseEvents.contains(event, last)));
        if (!error && !counted && !(carriesResponse && renamed)) {
            return event;
        }
        // The Response's one model field renamed in the text, as chat chunks are: parsing and writing the Response
        // again cost a renamed stream's created and in_progress events more than all its deltas. Null where the text
        // is not that simple; the event is then read and written.
        byte[] ours = carriesResponse && renamed ? renamedResponse(event) : event;
        if (ours != null && !error && !counted) {
            return ours;
        }
        String payload = SseEvents.data(ours != null ? ours : event);
        if (payload == null) {
            return event;
        }
        try {
            JsonNode parsed = json.readTree(payload);
            String type = parsed.path("type").asText();
            if ("error".equals(type)) {
                usage.failed();
            } else if (parsed.path("response") instanceof ObjectNode response && responseEvent(type, response)) {
                return ("event: " + type + "\ndata: " + json.writeValueAsString(parsed) + "\n\n")
                        .getBytes(StandardCharsets.UTF_8);
            }
            return ours != null ? ours : event;
        } catch (JsonProcessingException e) {
            usage.failed();
            return inBandError("The upstream stream of model `" + model + "` sent an unreadable event")
                    .getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * A Responses API event with its Response's model renamed in the text, when its data is one line whose only
     * {@code "model"} key is the upstream's, in the Response (the event's {@code response} object); else null.
     */
    private byte[] renamedResponse(byte[] event) {
        if (upstreamModelField == null) {
            return null;
        }
        String text = new String(event, StandardCharsets.UTF_8);
        int data = text.indexOf("data: ");
        if (data < 0 || text.indexOf('\n', data) != text.length() - 2) {
            return null;
        }
        int at = onlyModelAt(text, data + "data: ".length(), 2);
        if (at < 0) {
            return null;
        }
        return (text.substring(0, at) + ownModelField + text.substring(at + upstreamModelField.length()))
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Ends the client's stream once; {@code problem}: why the upstream stream is incomplete, or null. */
    private void finish(Sink client, String problem) {
        synchronized (this) {
            if (finished) {
                return;
            }
            finished = true;
        }
        writeUnwritten(client);
        if (problem != null) {
            usage.failed();
            client.write((inBandError("The upstream stream of model `" + model + "` " + problem) + DONE)
                    .getBytes(StandardCharsets.UTF_8));
        }
        client.end();
    }

    /** Appends our form of one upstream event to {@code ours}: as it came unless it must change or be dropped. */
    private void relayEvent(StringBuilder ours, String payload) {
        boolean plainChunk = !payload.contains("\"usage\"") && !payload.contains("\"error\"");
        if (!renamed && plainChunk && payload.contains(ownModelField)) {
            ours.append("data: ").append(payload).append("\n\n");
            return;
        }
        int upstreamModelAt = plainChunk && upstreamModelField != null ? onlyModelAt(payload, 0, 1) : -1;
        if (upstreamModelAt >= 0) {
            // the one top-level model field renamed in the text: parsing and writing every chunk again cost a
            // renamed stream several times the CPU and ~5 kB of garbage per chunk
            ours.append("data: ").append(payload, 0, upstreamModelAt).append(ownModelField)
                    .append(payload, upstreamModelAt + upstreamModelField.length(), payload.length()).append("\n\n");
            return;
        }
        try {
            JsonNode chunk = json.readTree(payload);
            if (chunk.has("error")) {
                usage.failed();
                ours.append("data: ").append(payload).append("\n\n");
                return;
            }
            if (chunk.path("usage").isObject() && chunk.path("choices").isEmpty()) {
                usage.count(chunk);
                if (!clientWantsUsage) {
                    return;
                }
            }
            if (chunk.path("response") instanceof ObjectNode response && responseEvent(chunk.path("type").asText(), response)) {
                ours.append("data: ").append(json.writeValueAsString(chunk)).append("\n\n");
                return;
            }
            if (chunk instanceof ObjectNode object && !model.equals(object.path("model").asText(model))) {
                object.put("model", model);
                ours.append("data: ").append(json.writeValueAsString(object)).append("\n\n");
                return;
            }
            ours.append("data: ").append(payload).append("\n\n");
        } catch (JsonProcessingException e) {
            usage.failed();
            ours.append(inBandError("The upstream stream of model `" + model + "` sent an unreadable chunk"));
        }
    }

    /**
     * Reads an event of a Responses API stream that carries the Response: its usage (the last event's), whether it
     * ended the stream (such a stream has no {@code [DONE]}) or failed; renames its model to ours. Answers whether
     * the event was changed.
     */
    private boolean responseEvent(String type, ObjectNode response) {
        switch (type) {
            case "response.completed", "response.incomplete" -> done = true;
            case "response.failed" -> {
                done = true;
                usage.failed();
            }
            default -> {
                // created, in progress: nothing to count yet
            }
        }
        if (response.path("usage").isObject()) {
            usage.count(response);
        }
        if (!model.equals(response.path("model").asText(model))) {
            response.put("model", model);
            return true;
        }
        return false;
    }

    /**
     * Where the upstream's model field is in {@code text}, when it is the only {@code "model"} key and sits at
     * {@code depth} in the JSON that starts at {@code from} (1: the top-level object); else -1. A {@code "model"} with
     * its quotes bare is always a key: inside a JSON string they would be escaped.
     */
    private int onlyModelAt(String text, int from, int depth) {
        int at = text.indexOf(upstreamModelField, from);
        if (at < 0 || text.indexOf("\"model\"", at + 1) >= 0 || text.lastIndexOf("\"model\"", at - 1) >= from) {
            return -1;
        }
        int level = 0;
        boolean inString = false;
        for (int i = from; i < at; i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                level++;
            } else if (c == '}' || c == ']') {
                level--;
            }
        }
        return level == depth && !inString ? at : -1;
    }

    /** Whether {@code name} is written in JSON as it is, with no escapes. */
    private static boolean plain(String name) {
        return name.chars().allMatch(c -> c >= 0x20 && c != '"' && c != '\\');
    }

    private String inBandError(String message) {
        try {
            return "data: " + json.writeValueAsString(Map.of("error",
                    new OpenAiError(message, "upstream_error", null, null))) + "\n\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
