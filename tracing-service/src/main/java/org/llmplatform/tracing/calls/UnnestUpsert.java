package org.llmplatform.tracing.calls;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A batch of upserts as one statement: the rows travel column by column as arrays and are inserted
 * with {@code INSERT … SELECT … FROM unnest(…) ON CONFLICT …}, one execution instead of one per row.
 * One statement may touch a row only once, so rows repeating a key go in later rounds, in order.
 */
final class UnnestUpsert {

    /** How a column travels (an array of this SQL type) and reads back as the column. */
    enum Kind {
        TEXT("text[]", String.class, column -> "u." + column),
        TIMESTAMPTZ("timestamptz[]", OffsetDateTime.class, column -> "u." + column),
        BIGINT("bigint[]", Long.class, column -> "u." + column),
        /**
         * A JSON column, written with its size in {@code <column>_size_bytes} (the JSON text's length in bytes). Its
         * text travels as UTF-8 bytes: the driver encodes a String parameter a character at a time, a tenth of the
         * service's CPU on ingest, where {@code String.getBytes} copies ASCII text at once.
         */
        JSONB("bytea[]", Buffer.class, column -> "convert_from(u." + column + ", 'UTF8')::jsonb"),
        /** A text[] per row, sent as its JSON array text (arrays of arrays cannot be ragged); null for none. */
        REFS("text[]", String.class, column -> ("CASE WHEN u.%1$s IS NULL THEN '{}'::text[]"
                + " ELSE ARRAY(SELECT jsonb_array_elements_text(u.%1$s::jsonb)) END").formatted(column));

        final String arrayType;
        final Class<?> elementType;
        final Function<String, String> read;

        Kind(String arrayType, Class<?> elementType, Function<String, String> read) {
            this.arrayType = arrayType;
            this.elementType = elementType;
            this.read = read;
        }
    }

    record Column(String name, Kind kind) {
    }

    private final List<Column> columns;
    /** The trace id's column, which groups the rows' words (-1: none, as in an end). */
    private final int traceColumn;
    private final String sql;

    /** {@code onConflict}: the statement's {@code ON CONFLICT …} clause, how a row merges into the one it meets. */
    UnnestUpsert(List<Column> columns, String onConflict) {
        this.columns = List.copyOf(columns);
        this.traceColumn = columns.stream().map(Column::name).toList().indexOf("trace_id");
        String names = columns.stream().map(Column::name).collect(Collectors.joining(", "));
        String targets = names + sizeColumns(columns, column -> column + "_size_bytes");
        String reads = columns.stream().map(column -> column.kind().read.apply(column.name()))
                .collect(Collectors.joining(", ")) + sizeColumns(columns, column -> "octet_length(u." + column + ")");
        String arrays = IntStream.range(0, columns.size())
                .mapToObj(i -> "$" + (i + 1) + "::" + columns.get(i).kind().arrayType)
                .collect(Collectors.joining(", "));
        int groups = columns.size() + 1;
        this.sql = "WITH written AS (\nINSERT INTO tracing.calls AS c (" + targets + ")\nSELECT " + reads
                + "\nFROM unnest(" + arrays + ") AS u(" + names + ")\n" + onConflict
                + "\nRETURNING c.project_id, c.id, c.trace_id, c.started_at)\n"
                + FILE_WORDS.formatted(groups, groups + 1, groups + 2);
    }

    /**
     * Files the words of the rows' inputs and outputs ({@link SearchTerms}) under the trace each call has once written,
     * one row of {@code tracing.call_search_terms} per trace (migration V28). The rows' words travel once per group
     * (parameter %2$s, their words %3$s): the calls the client sent in one trace, whose words repeat one another's; each
     * row names its group (%1$s). A call with no trace yet (an end before its start) has its words filed by V28's
     * trigger when its start sets the trace.
     */
    private static final String FILE_WORDS = """
            INSERT INTO tracing.call_search_terms (project_id, trace_id, started_at, terms)
            SELECT w.project_id, w.trace_id, max(w.started_at), string_agg(DISTINCT g.words, ' ')
            FROM written w
            JOIN unnest($1::text[], $2::text[], $%1$s::text[]) AS u(project_id, id, word_group)
                ON u.project_id = w.project_id AND u.id = w.id
            JOIN unnest($%2$s::text[], $%3$s::text[]) AS g(word_group, words) ON g.word_group = u.word_group
            WHERE w.trace_id IS NOT NULL
            GROUP BY w.project_id, w.trace_id""";

    private static String sizeColumns(List<Column> columns, Function<String, String> size) {
        return columns.stream().filter(column -> column.kind() == Kind.JSONB)
                .map(column -> ", " + size.apply(column.name())).collect(Collectors.joining());
    }

    /**
     * Writes the rows in order of their keys' repeats. Each is a tuple in the column order (keys are the first two
     * values), then the JSON documents whose words it files (its inputs and output, a {@code String[]}).
     */
    Uni<Void> execute(SqlClient client, List<Tuple> rows) {
        Uni<Void> done = Uni.createFrom().voidItem();
        for (List<Tuple> round : rounds(rows)) {
            done = done.chain(() -> client.preparedQuery(sql).execute(columnArrays(round)).replaceWithVoid());
        }
        return done;
    }

    private Tuple columnArrays(List<Tuple> rows) {
        Tuple arrays = Tuple.tuple();
        for (int c = 0; c < columns.size(); c++) {
            Kind kind = columns.get(c).kind();
            Object array = Array.newInstance(kind.elementType, rows.size());
            for (int r = 0; r < rows.size(); r++) {
                Object value = rows.get(r).getValue(c);
                Array.set(array, r, switch (kind) {
                    case REFS -> refs((String[]) value);
                    case JSONB -> value == null ? null
                            : Buffer.buffer(((String) value).getBytes(StandardCharsets.UTF_8));
                    default -> value;
                });
            }
            arrays.addValue(array);
        }
        return addWordGroups(arrays, rows);
    }

    /** The rows' groups (the trace the client named, else the call alone) and the words of each group, once. */
    private Tuple addWordGroups(Tuple arrays, List<Tuple> rows) {
        String[] groups = new String[rows.size()];
        Map<String, WordSet> words = new LinkedHashMap<>();
        for (int r = 0; r < rows.size(); r++) {
            Tuple row = rows.get(r);
            String trace = traceColumn < 0 ? null : row.getString(traceColumn);
            groups[r] = row.getString(0) + (trace == null ? "\ncall\n" + row.getString(1) : "\ntrace\n" + trace);
            WordSet groupWords = words.computeIfAbsent(groups[r], ignored -> new WordSet());
            for (String document : (String[]) row.getValue(columns.size())) {
                SearchTerms.addDocumentWords(document, groupWords);
            }
        }
        words.values().removeIf(WordSet::isEmpty);
        return arrays.addValue(groups).addValue(words.keySet().toArray(String[]::new))
                .addValue(words.values().stream().map(WordSet::joined).toArray(String[]::new));
    }

    private static String refs(String[] refs) {
        return refs == null || refs.length == 0 ? null : new JsonArray(Arrays.asList((Object[]) refs)).encode();
    }

    /** Round n holds the (n+1)-th row of each key, so no statement touches a row twice. */
    private static List<List<Tuple>> rounds(List<Tuple> rows) {
        List<List<Tuple>> rounds = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (Tuple row : rows) {
            int round = seen.merge(row.getString(0) + '\n' + row.getString(1), 1, Integer::sum) - 1;
            if (round == rounds.size()) {
                rounds.add(new ArrayList<>());
            }
            rounds.get(round).add(row);
        }
        return rounds;
    }
}
