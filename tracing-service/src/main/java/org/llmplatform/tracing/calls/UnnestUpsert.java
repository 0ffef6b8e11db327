package org.llmplatform.tracing.calls;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.lang.reflect.Array;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
        /** A JSON column, written with its size in {@code <column>_size_bytes} (the JSON text's length in bytes). */
        JSONB("text[]", String.class, column -> "u." + column + "::jsonb"),
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
    private final String sql;

    /** {@code onConflict} is the {@code ON CONFLICT …} clause of the row-by-row upsert, reused as it is. */
    UnnestUpsert(List<Column> columns, String onConflict) {
        this.columns = List.copyOf(columns);
        String names = columns.stream().map(Column::name).collect(Collectors.joining(", "));
        String targets = names + sizeColumns(columns, column -> column + "_size_bytes");
        String reads = columns.stream().map(column -> column.kind().read.apply(column.name()))
                .collect(Collectors.joining(", ")) + sizeColumns(columns, column -> "octet_length(u." + column + ")");
        String arrays = IntStream.range(0, columns.size())
                .mapToObj(i -> "$" + (i + 1) + "::" + columns.get(i).kind().arrayType)
                .collect(Collectors.joining(", "));
        this.sql = "INSERT INTO tracing.calls AS c (" + targets + ")\nSELECT " + reads + "\nFROM unnest(" + arrays
                + ") AS u(" + names + ")\n" + onConflict;
    }

    private static String sizeColumns(List<Column> columns, Function<String, String> size) {
        return columns.stream().filter(column -> column.kind() == Kind.JSONB)
                .map(column -> ", " + size.apply(column.name())).collect(Collectors.joining());
    }

    /** The {@code ON CONFLICT …} clause of an upsert statement. */
    static String onConflictOf(String upsert) {
        return upsert.substring(upsert.indexOf("ON CONFLICT"));
    }

    /** Writes the rows (each a tuple in the column order; keys are the first two values) in order of their keys' repeats. */
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
                Array.set(array, r, kind == Kind.REFS ? refs((String[]) value) : value);
            }
            arrays.addValue(array);
        }
        return arrays;
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
