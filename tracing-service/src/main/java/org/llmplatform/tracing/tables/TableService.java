package org.llmplatform.tracing.tables;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StoredJson;
import org.llmplatform.tracing.digest.Digests.Canonical;
import org.llmplatform.tracing.digest.Digests;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.query.SortBy;
import org.llmplatform.tracing.tables.TableStore.RowSort;
import org.llmplatform.tracing.tables.TableStore.RowsInTable;
import org.llmplatform.tracing.tables.TableStore.TableStats;

/** Immutable, content-addressed tables (docs/tracing-service.md#tables): create, update, query and stats. */
@ApplicationScoped
public class TableService {

    /** Hashing more rows than this moves off the event loop. */
    private static final int INLINE_ROWS = 500;
    private static final int LINES_PER_CHUNK = 200;

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record TableCreated(String digest, List<String> rowDigests) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record TableUpdated(String digest, List<String> updatedRowDigests) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record RowSchema(String digest, JsonNode val, long originalIndex) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TableStatsSchema(long count, String digest, Long storageSizeBytes) {
    }

    /** One edit of {@code table/update}: exactly one of append, pop, insert. */
    public record TableEdit(JsonNode appendRow, boolean append, Integer popIndex, Integer insertIndex, JsonNode insertRow,
            int kinds) {
    }

    public record TableQuery(String projectId, String digest, List<String> rowDigests, List<SortBy> sortBy, Long limit,
            Long offset) {
    }

    private final TableStore store;
    private final CurrentPrincipal caller;
    private final ObjectMapper json;

    public TableService(TableStore store, CurrentPrincipal caller, ObjectMapper json) {
        this.store = store;
        this.caller = caller;
        this.json = json;
    }

    public Uni<TableCreated> create(String projectId, List<JsonNode> rows) {
        String project = caller.requireProject(projectId).toString();
        if (rows == null) {
            throw ApiException.invalidField("missing", List.of("body", "table", "rows"), "Field required", null);
        }
        return hashed(rows.size(), () -> hash(rows, List.of("table", "rows")))
                .chain(canonical -> {
                    List<String> digests = canonical.stream().map(Canonical::digest).toList();
                    String tableDigest = Digests.tableDigest(digests);
                    NewRows fresh = NewRows.of(canonical);
                    return store.insert(project, tableDigest, digests, fresh.digests(), fresh.dumps())
                            .replaceWith(new TableCreated(tableDigest, digests));
                });
    }

    /**
     * {@code table/create_from_digests}: the table of the given row digests, as the reference makes it, without checking
     * that the rows exist; an {@code expected_digest} other than the table's is a 409 and nothing is stored.
     */
    public Uni<String> createFromDigests(String projectId, List<String> rowDigests, String expectedDigest) {
        String project = caller.requireProject(projectId).toString();
        if (rowDigests == null) {
            throw ApiException.invalidField("missing", List.of("body", "row_digests"), "Field required", null);
        }
        for (int i = 0; i < rowDigests.size(); i++) {
            if (rowDigests.get(i) == null) {
                throw ApiException.invalidField("string_type", List.of("body", "row_digests", i), "Input should be a valid string",
                        null);
            }
        }
        String tableDigest = Digests.tableDigest(rowDigests);
        if (expectedDigest != null && !expectedDigest.equals(tableDigest)) {
            throw ApiException.conflict("Client table (" + rowDigests.size() + " rows) digest " + expectedDigest
                    + " != server digest " + tableDigest);
        }
        return store.insert(project, tableDigest, rowDigests, List.of(), List.of()).replaceWith(tableDigest);
    }

    public Uni<TableUpdated> update(String projectId, String baseDigest, List<TableEdit> edits) {
        String project = caller.requireProject(projectId).toString();
        if (baseDigest == null) {
            throw ApiException.missingField("base_digest");
        }
        if (edits == null) {
            throw ApiException.missingField("updates");
        }
        List<JsonNode> newRows = new ArrayList<>();
        for (int i = 0; i < edits.size(); i++) {
            TableEdit edit = edits.get(i);
            if (edit == null || edit.kinds() != 1) {
                throw ApiException.invalidField("value_error", List.of("body", "updates", i),
                        "Each update must hold exactly one of append, pop, insert", null);
            }
            if (edit.append()) {
                newRows.add(edit.appendRow());
            } else if (edit.insertIndex() != null) {
                newRows.add(edit.insertRow());
            }
        }
        List<Canonical> canonical = hash(newRows, List.of("updates", "row"));
        return store.rowDigests(project, baseDigest).chain(found -> {
            List<String> rows = new ArrayList<>(found.orElseThrow(
                    () -> ApiException.notFound("Table " + project + ":" + baseDigest + " not found")));
            List<String> updated = new ArrayList<>();
            int next = 0;
            for (TableEdit edit : edits) {
                if (edit.append()) {
                    String digest = canonical.get(next++).digest();
                    rows.add(digest);
                    updated.add(digest);
                } else if (edit.popIndex() != null) {
                    int index = edit.popIndex();
                    if (index < 0 || index >= rows.size()) {
                        throw ApiException.badRequest("Index out of range: pop index " + index + " for a table of "
                                + rows.size() + " rows");
                    }
                    updated.add(rows.remove(index));
                } else {
                    int index = edit.insertIndex();
                    if (index < 0 || index > rows.size()) {
                        throw ApiException.badRequest("Index out of range: insert index " + index + " for a table of "
                                + rows.size() + " rows");
                    }
                    String digest = canonical.get(next++).digest();
                    rows.add(index, digest);
                    updated.add(digest);
                }
            }
            String digest = Digests.tableDigest(rows);
            NewRows fresh = NewRows.of(canonical);
            return store.insert(project, digest, rows, fresh.digests(), fresh.dumps())
                    .replaceWith(new TableUpdated(digest, updated));
        });
    }

    public Uni<List<RowSchema>> query(TableQuery query) {
        return store.list(rows(query)).map(rows -> rows.stream().map(this::schema).toList());
    }

    /**
     * The rows as JSON Lines text, {@link #LINES_PER_CHUNK} lines per item (the last line of each
     * without its newline, which the streaming writer adds); the stored canonical JSON is written as
     * the value without being parsed again.
     */
    public Multi<String> streamLines(TableQuery query) {
        return store.stream(rows(query)).group().intoLists().of(LINES_PER_CHUNK).map(rows -> {
            StringBuilder lines = new StringBuilder(rows.size() * 256);
            for (TableRow row : rows) {
                if (lines.length() > 0) {
                    lines.append('\n');
                }
                lines.append("{\"digest\": \"").append(row.digest()).append("\", \"val\": ").append(row.valDump())
                        .append(", \"original_index\": ").append(row.originalIndex()).append('}');
            }
            return lines.toString();
        });
    }

    public Uni<Long> count(String projectId, String digest) {
        String project = caller.requireProject(projectId).toString();
        if (digest == null) {
            throw ApiException.missingField("digest");
        }
        return store.stats(project, List.of(digest), false).map(stats -> {
            if (stats.isEmpty()) {
                throw ApiException.notFound("Table " + project + ":" + digest + " not found");
            }
            return stats.get(0).count();
        });
    }

    /** One entry per existing table among {@code digests}, in request order; missing ones are left out. */
    public Uni<List<TableStatsSchema>> stats(String projectId, List<String> digests, boolean includeStorageSize) {
        String project = caller.requireProject(projectId).toString();
        List<String> wanted = digests == null ? List.of() : digests;
        return store.stats(project, wanted, includeStorageSize).map(stats -> {
            Map<String, TableStats> byDigest = new LinkedHashMap<>();
            stats.forEach(stat -> byDigest.put(stat.digest(), stat));
            return wanted.stream().distinct().filter(byDigest::containsKey).map(byDigest::get)
                    .map(stat -> new TableStatsSchema(stat.count(), stat.digest(),
                            includeStorageSize ? stat.storageSizeBytes() : null)).toList();
        });
    }

    private RowsInTable rows(TableQuery query) {
        String project = caller.requireProject(query.projectId()).toString();
        if (query.digest() == null) {
            throw ApiException.missingField("digest");
        }
        Page page = Page.of(query.limit(), query.offset());
        List<RowSort> sorts = new ArrayList<>();
        if (query.sortBy() != null) {
            for (SortBy sort : query.sortBy()) {
                sorts.add(rowSort(sort));
            }
        }
        return new RowsInTable(project, query.digest(), query.rowDigests(), sorts, page);
    }

    private static RowSort rowSort(SortBy sort) {
        if (sort == null || sort.field() == null || sort.field().isEmpty()) {
            throw ApiException.badRequest("Sort field cannot be empty");
        }
        String field = sort.field();
        if (field.startsWith(".") || field.endsWith(".")) {
            throw ApiException.badRequest("Invalid sort field '" + field + "': cannot start or end with a dot");
        }
        if (field.contains("..")) {
            throw ApiException.badRequest("Invalid sort field '" + field + "': cannot contain consecutive dots");
        }
        List<String> path = List.of(field.split("\\.", -1));
        if (path.stream().anyMatch(String::isBlank)) {
            throw ApiException.badRequest("Invalid sort field '" + field + "': empty component");
        }
        String direction = sort.direction() == null ? "asc" : sort.direction().toLowerCase(Locale.ROOT);
        if (!direction.equals("asc") && !direction.equals("desc")) {
            throw ApiException.invalidField("literal_error", List.of("body", "sort_by", "direction"),
                    "Input should be 'asc' or 'desc'", sort.direction());
        }
        return new RowSort(path, direction.equals("desc"));
    }

    private RowSchema schema(TableRow row) {
        return new RowSchema(row.digest(), StoredJson.parse(json, row.valDump()), row.originalIndex());
    }

    private static List<Canonical> hash(List<JsonNode> rows, List<Object> at) {
        List<Canonical> canonical = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            JsonNode row = rows.get(i);
            if (row == null || !row.isObject()) {
                throw ApiException.badRequest("Row " + i + " of " + String.join(".", at.stream().map(String::valueOf).toList())
                        + " is not a JSON object: every table row must be an object");
            }
            canonical.add(Digests.canonical(row));
        }
        return canonical;
    }

    private static <T> Uni<T> hashed(int rows, Supplier<T> work) {
        if (rows <= INLINE_ROWS) {
            return Uni.createFrom().item(work);
        }
        return Uni.createFrom().item(work).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    /** The distinct rows of a request, each once. */
    private record NewRows(List<String> digests, List<String> dumps) {

        static NewRows of(List<Canonical> rows) {
            Set<String> seen = new HashSet<>();
            List<String> digests = new ArrayList<>();
            List<String> dumps = new ArrayList<>();
            for (Canonical row : rows) {
                if (seen.add(row.digest())) {
                    digests.add(row.digest());
                    dumps.add(row.json());
                }
            }
            return new NewRows(digests, dumps);
        }
    }
}
