package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingJsonFactory;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * Keeps one call per chat completion of the inference gateway (docs/tracing-service.md#usage-calls), through
 * {@code tracing.completion_calls}. A client's call of a completion (an {@code openai.chat.completions.create} of the
 * Weave SDKs) is recognised by its output, a JSON object with the completion's {@code id} and a {@code choices} array,
 * as those SDKs record it, streamed or not, and by its {@code summary.usage}, which they fill: a call that only
 * returns a completion it did not count (a user's op around an untraced client) leaves the gateway's call, which
 * counts its tokens. The gateway's call of
 * the same completion is dropped when the client's call arrives after it, and never written when it arrives before.
 * Both sides upsert the completion's row first, which serialises them on its key: whichever commits second sees the
 * other's call. A row is forgotten {@link org.llmplatform.tracing.usage.UsageConfig#completionCallsKept() a while} after
 * its last write ({@link org.llmplatform.tracing.usage.CompletionCallsPruner}).
 */
@ApplicationScoped
public class CompletionCalls {

    /** A completion of a project and the call one side recorded it as. */
    public record Link(String projectId, String completionId, String callId) {
    }

    /** Completion ids past this length are no gateway's (its own are {@code chatcmpl-} and 1-128 characters). */
    private static final int MAX_COMPLETION_ID_LENGTH = 256;

    private static final String LINK_CLIENT_CALLS = """
            WITH linked AS (
                INSERT INTO tracing.completion_calls AS l (project_id, completion_id, client_call_id)
                SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
                ON CONFLICT (project_id, completion_id) DO UPDATE
                    SET client_call_id = coalesce(l.client_call_id, EXCLUDED.client_call_id), linked_at = now()
                RETURNING project_id, gateway_call_id)
            DELETE FROM tracing.calls c USING linked
            WHERE c.project_id = linked.project_id AND c.id = linked.gateway_call_id""";

    private static final String LINK_GATEWAY_CALLS = """
            INSERT INTO tracing.completion_calls AS l (project_id, completion_id, gateway_call_id)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
            ON CONFLICT (project_id, completion_id) DO UPDATE SET gateway_call_id = EXCLUDED.gateway_call_id,
                linked_at = now()
            RETURNING project_id, gateway_call_id, client_call_id""";

    /** Reads a value as a tree where asked ({@code readValueAsTree}), the rest token by token. */
    private static final JsonFactory JSON = new MappingJsonFactory();

    /** The completions that ends record as their output: at most one per completion, in key order. */
    public List<Link> clientCalls(Collection<CallEndRow> ends) {
        TreeMap<String, Link> links = new TreeMap<>();
        for (CallEndRow end : ends) {
            String completionId = countsUsage(end.summaryJson()) ? completionId(end.outputJson()) : null;
            if (completionId != null) {
                links.putIfAbsent(end.projectId() + '\n' + completionId, new Link(end.projectId(), completionId, end.id()));
            }
        }
        return List.copyOf(links.values());
    }

    /** Records the client calls of their completions and deletes the gateway's calls of them, within {@code tx}. */
    Uni<Void> linkClientCalls(SqlClient tx, List<Link> links) {
        if (links.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return tx.preparedQuery(LINK_CLIENT_CALLS).execute(columns(links)).replaceWithVoid();
    }

    /**
     * Records the gateway's calls of their completions within {@code tx} (at most one link per completion, in key
     * order) and answers the keys ({@link #key}) of the calls not to write: their completion has a client's call.
     */
    Uni<Set<String>> linkGatewayCalls(SqlClient tx, List<Link> links) {
        if (links.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return tx.preparedQuery(LINK_GATEWAY_CALLS).execute(columns(links)).map(rows -> {
            Set<String> recordedByClient = new HashSet<>();
            rows.forEach(row -> {
                if (row.getString("client_call_id") != null) {
                    recordedByClient.add(key(row.getString("project_id"), row.getString("gateway_call_id")));
                }
            });
            return recordedByClient;
        });
    }

    static String key(String projectId, String callId) {
        return projectId + '\n' + callId;
    }

    private static Tuple columns(List<Link> links) {
        return Tuple.of(links.stream().map(Link::projectId).toArray(String[]::new),
                links.stream().map(Link::completionId).toArray(String[]::new),
                links.stream().map(Link::callId).toArray(String[]::new));
    }

    /** Whether a summary counts tokens: a non-empty {@code usage} object. */
    private static boolean countsUsage(String summaryJson) {
        if (summaryJson == null || !summaryJson.contains("\"usage\"")) {
            return false;
        }
        boolean[] counts = {false};
        boolean read = readTopLevelFields(summaryJson, (name, parser) -> {
            if (name.equals("usage")) {
                JsonNode usage = parser.readValueAsTree();
                counts[0] = usage != null && usage.isObject() && !usage.isEmpty();
            }
        });
        return read && counts[0];
    }

    /** The id of the chat completion an output is, or null; most outputs are told apart without being parsed. */
    private static String completionId(String outputJson) {
        if (outputJson == null || !outputJson.contains("\"choices\"")) {
            return null;
        }
        String[] id = {null};
        boolean[] choices = {false};
        boolean read = readTopLevelFields(outputJson, (name, parser) -> {
            if (name.equals("id")) {
                id[0] = parser.currentToken() == JsonToken.VALUE_STRING ? parser.getText() : null;
            } else if (name.equals("choices")) {
                choices[0] = parser.currentToken() == JsonToken.START_ARRAY;
            }
        });
        boolean completion = read && id[0] != null && !id[0].isBlank() && id[0].length() <= MAX_COMPLETION_ID_LENGTH
                && choices[0];
        return completion ? id[0] : null;
    }

    /**
     * Shows {@code field} each top-level field of a JSON object (name, and the parser at its value, which it may read
     * through), the last of a repeated name last, without building the document (every call written is looked at);
     * false where it is no JSON object, which the store refuses as it refuses any malformed JSON column.
     */
    private static boolean readTopLevelFields(String json, TopLevelField field) {
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                parser.nextToken();
                field.read(name, parser);
                parser.skipChildren();
            }
            return true;
        } catch (IOException unreadable) {
            return false;
        }
    }

    @FunctionalInterface
    private interface TopLevelField {
        void read(String name, JsonParser parser) throws IOException;
    }
}
