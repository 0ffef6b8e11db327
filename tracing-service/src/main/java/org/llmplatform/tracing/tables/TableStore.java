package org.llmplatform.tracing.tables;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.llmplatform.tracing.query.Cursors;
import org.llmplatform.tracing.query.InvalidQueryException;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.query.SqlStatement;

/**
 * The SQL over {@code tracing.table_rows} and {@code tracing.tables}. Rows are written in chunks of
 * {@link #CHUNK} through {@code unnest}, one statement per chunk, so a 100,000-row table is 20
 * pipelined statements.
 * Rows are read by a lateral index lookup per row digest, fenced with {@code OFFSET 0}: as a join the
 * planner, which guesses 10 elements for {@code unnest}, may unnest the array once per stored row.
 */
@ApplicationScoped
public class TableStore {

    static final int CHUNK = 5_000;

    private static final String INSERT_ROWS = """
            INSERT INTO tracing.table_rows (project_id, digest, val_dump)
            SELECT $1, digest, val_dump FROM unnest($2::text[], $3::text[]) AS r(digest, val_dump)
            ON CONFLICT DO NOTHING""";

    private static final String INSERT_TABLE = """
            INSERT INTO tracing.tables (project_id, digest, row_digests) VALUES ($1, $2, $3::text[])
            ON CONFLICT DO NOTHING""";

    private static final String ROW_DIGESTS = "SELECT row_digests FROM tracing.tables WHERE project_id = $1 AND digest = $2";

    private static final String STATS = """
            SELECT t.digest, cardinality(t.row_digests) AS count,
                   CASE WHEN $3 THEN (SELECT coalesce(sum(r.size), 0) FROM unnest(t.row_digests) AS d(digest)
                        CROSS JOIN LATERAL (SELECT octet_length(val_dump) AS size FROM tracing.table_rows
                                            WHERE project_id = t.project_id AND digest = d.digest OFFSET 0) r) END AS size
            FROM tracing.tables t WHERE t.project_id = $1 AND t.digest = ANY($2::text[])""";

    private static final String SQL_INVALID_TEXT = "22P05";

    private final Pool pool;

    public TableStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Stores the rows not stored yet and the table, in one transaction. The statements are sent
     * together (the connection pipelines them), so PostgreSQL works through one chunk while the next
     * is encoded and on its way instead of waiting a round trip between chunks.
     */
    public Uni<Void> insert(String projectId, String tableDigest, List<String> rowDigests, List<String> newDigests,
            List<String> newDumps) {
        return pool.withTransaction(tx -> {
            List<Uni<Void>> statements = new ArrayList<>();
            for (int from = 0; from < newDigests.size(); from += CHUNK) {
                int to = Math.min(from + CHUNK, newDigests.size());
                Tuple chunk = Tuple.of(projectId, newDigests.subList(from, to).toArray(String[]::new),
                        newDumps.subList(from, to).toArray(String[]::new));
                statements.add(tx.preparedQuery(INSERT_ROWS).execute(chunk).replaceWithVoid());
            }
            statements.add(tx.preparedQuery(INSERT_TABLE)
                    .execute(Tuple.of(projectId, tableDigest, rowDigests.toArray(String[]::new))).replaceWithVoid());
            return Uni.join().all(statements).andFailFast().replaceWithVoid();
        });
    }

    public Uni<Optional<List<String>>> rowDigests(String projectId, String tableDigest) {
        return pool.preparedQuery(ROW_DIGESTS).execute(Tuple.of(projectId, tableDigest)).map(rows -> {
            if (rows.rowCount() == 0) {
                return Optional.empty();
            }
            return Optional.of(Arrays.asList(rows.iterator().next().getArrayOfStrings("row_digests")));
        });
    }

    private static final String ROW_IN_TABLE = """
            SELECT r.val_dump FROM tracing.table_rows r
            WHERE r.project_id = $1 AND r.digest = $3
              AND EXISTS (SELECT 1 FROM tracing.tables t WHERE t.project_id = $1 AND t.digest = $2 AND $3 = ANY(t.row_digests))""";

    /** The canonical JSON of a row, if the table holds it. */
    public Uni<Optional<String>> rowInTable(String projectId, String tableDigest, String rowDigest) {
        return pool.preparedQuery(ROW_IN_TABLE).execute(Tuple.of(projectId, tableDigest, rowDigest))
                .map(rows -> rows.rowCount() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString("val_dump")));
    }

    /** Row count and, when asked, stored bytes of each existing table among {@code digests}. */
    public record TableStats(String digest, long count, Long storageSizeBytes) {
    }

    public Uni<List<TableStats>> stats(String projectId, List<String> digests, boolean includeStorageSize) {
        return pool.preparedQuery(STATS).execute(Tuple.of(projectId, digests.toArray(String[]::new), includeStorageSize))
                .map(rows -> {
                    List<TableStats> stats = new ArrayList<>();
                    rows.forEach(row -> stats.add(new TableStats(row.getString("digest"), row.getLong("count"),
                            row.getLong("size"))));
                    return stats;
                });
    }

    /** A table's rows in the order and page the query asks for, streamed through a cursor. */
    public Multi<TableRow> stream(RowsInTable query) {
        return Cursors.stream(pool, statement(query)).map(TableStore::row)
                .onFailure(PgException.class).transform(TableStore::refused);
    }

    public Uni<List<TableRow>> list(RowsInTable query) {
        SqlStatement statement = statement(query);
        return pool.preparedQuery(statement.sql()).execute(Tuple.from(statement.params())).map(rows -> {
            List<TableRow> list = new ArrayList<>(rows.rowCount());
            rows.forEach(row -> list.add(row(row)));
            return list;
        }).onFailure(PgException.class).transform(TableStore::refused);
    }

    /** A sort key: a path into the row value and its direction. */
    public record RowSort(List<String> path, boolean descending) {
    }

    /** The rows of one table, only those of {@code rowDigests} when given, sorted by {@code sortBy}, then by position. */
    public record RowsInTable(String projectId, String tableDigest, List<String> rowDigests, List<RowSort> sortBy,
            Page page) {
    }

    /**
     * Rows of a table with their 0-based position, filtered to {@code rowDigests} when given; sorted
     * by each key's existence first, then as a number, then as text (docs/tracing-service.md#sorting-by-json-values), then by position.
     */
    private static SqlStatement statement(RowsInTable query) {
        List<String> rowDigests = query.rowDigests();
        List<RowSort> sortBy = query.sortBy();
        Long limit = query.page().limit();
        Long offset = query.page().offset();
        List<Object> params = new ArrayList<>(List.of(query.projectId(), query.tableDigest()));
        StringBuilder sql = new StringBuilder("""
                SELECT t.digest, r.val_dump, t.position - 1 AS original_index
                FROM tracing.tables tb CROSS JOIN LATERAL unnest(tb.row_digests) WITH ORDINALITY AS t(digest, position)
                CROSS JOIN LATERAL (SELECT val_dump FROM tracing.table_rows
                                    WHERE project_id = tb.project_id AND digest = t.digest OFFSET 0) r""");
        if (!sortBy.isEmpty()) {
            sql.append(" CROSS JOIN LATERAL (SELECT r.val_dump::jsonb AS val) j");
        }
        sql.append(" WHERE tb.project_id = $1 AND tb.digest = $2");
        if (rowDigests != null) {
            params.add(rowDigests.toArray(String[]::new));
            sql.append(" AND t.digest = ANY($").append(params.size()).append("::text[])");
        }
        List<String> order = new ArrayList<>();
        for (RowSort sort : sortBy) {
            params.add(sort.path().toArray(String[]::new));
            String path = "$" + params.size() + "::text[]";
            String direction = sort.descending() ? " DESC" : " ASC";
            order.add("(j.val #> " + path + ") IS NOT NULL DESC");
            order.add("tracing.to_double(j.val #>> " + path + ")" + direction + " NULLS LAST");
            order.add("(j.val #>> " + path + ") COLLATE \"C\"" + direction);
        }
        order.add("t.position");
        sql.append(" ORDER BY ").append(String.join(", ", order));
        if (limit != null) {
            params.add(limit);
            sql.append(" LIMIT $").append(params.size());
        }
        if (offset != null) {
            params.add(offset);
            sql.append(" OFFSET $").append(params.size());
        }
        return new SqlStatement(sql.toString(), params);
    }

    private static TableRow row(Row row) {
        return new TableRow(row.getString("digest"), row.getString("val_dump"), row.getLong("original_index"));
    }

    /** Rows holding {@code \u0000} cannot be sorted: PostgreSQL's jsonb refuses that character. */
    private static Throwable refused(Throwable failure) {
        PgException pg = (PgException) failure;
        if (SQL_INVALID_TEXT.equals(pg.getSqlState())) {
            return InvalidQueryException.unsupported("Rows holding the character U+0000 cannot be sorted");
        }
        return failure;
    }
}
