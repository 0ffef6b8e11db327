package org.llmplatform.tracing;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.llmplatform.testing.TestIdentities;

/** A user with a fresh project, talking to the trace API over real HTTP. */
public final class TraceClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    public final String user;
    public final String key;
    public final String project;

    public TraceClient(String prefix) {
        user = TestIdentities.unique(prefix);
        key = TestIdentities.userWithKey(user);
        project = user + "/p";
    }

    public ValidatableResponse post(String path, Object body) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON).body(body)
                .post(path).then();
    }

    /** A start part with the usual required fields; callers add or override the rest. */
    public Map<String, Object> start(String id, String opName, String startedAt) {
        Map<String, Object> start = new HashMap<>();
        start.put("project_id", project);
        start.put("id", id);
        start.put("trace_id", "trace-" + id);
        start.put("op_name", opName);
        start.put("started_at", startedAt);
        start.put("attributes", Map.of());
        start.put("inputs", Map.of());
        return start;
    }

    public Map<String, Object> end(String id, String endedAt) {
        Map<String, Object> end = new HashMap<>();
        end.put("project_id", project);
        end.put("id", id);
        end.put("ended_at", endedAt);
        end.put("summary", Map.of());
        return end;
    }

    /** Writes the parts in one upsert_batch, starts as "start" items and ends as "end" items. */
    public void write(List<Map<String, Object>> starts, List<Map<String, Object>> ends) {
        List<Object> batch = new ArrayList<>();
        starts.forEach(start -> batch.add(Map.of("mode", "start", "req", Map.of("start", start))));
        ends.forEach(end -> batch.add(Map.of("mode", "end", "req", Map.of("end", end))));
        post("/call/upsert_batch", Map.of("batch", batch)).statusCode(200);
    }

    /**
     * Posts every body to {@code path} twice, all at once from one thread per body, the resends racing the first
     * writes; each must answer 200.
     */
    public void postTwiceAtOnce(String path, List<?> bodies) throws Exception {
        ExecutorService writers = Executors.newFixedThreadPool(bodies.size());
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                for (Object body : bodies) {
                    sent.add(writers.submit(() -> post(path, body).statusCode(200)));
                }
            }
            for (Future<?> write : sent) {
                write.get();
            }
        } finally {
            writers.shutdown();
        }
    }

    /** The calls a stream_query returns, in order. */
    public List<Map<String, Object>> query(Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(extra);
        body.put("project_id", project);
        Response response = given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON).body(body)
                .post("/calls/stream_query");
        if (response.statusCode() != 200) {
            throw new AssertionError("stream_query answered " + response.statusCode() + ": " + response.asString());
        }
        return parseLines(response.asString());
    }

    public List<String> ids(Map<String, Object> extra) {
        return query(extra).stream().map(call -> (String) call.get("id")).toList();
    }

    public static List<Map<String, Object>> parseLines(String body) {
        List<Map<String, Object>> calls = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (!line.isEmpty()) {
                try {
                    calls.add(JSON.readValue(line, new TypeReference<Map<String, Object>>() { }));
                } catch (Exception e) {
                    throw new AssertionError("not a JSON line: " + line, e);
                }
            }
        }
        return calls;
    }
}
