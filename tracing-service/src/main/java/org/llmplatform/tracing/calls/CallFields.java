package org.llmplatform.tracing.calls;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.llmplatform.tracing.query.Expr;
import org.llmplatform.tracing.query.FieldPaths;
import org.llmplatform.tracing.query.FieldResolver;
import org.llmplatform.tracing.query.InvalidQueryException;
import org.llmplatform.tracing.query.SqlParams;
import org.llmplatform.tracing.query.SqlType;
import org.llmplatform.tracing.query.SqlValue;
import org.llmplatform.tracing.query.SqlValue.Column;
import org.llmplatform.tracing.query.SqlValue.JsonPath;

/**
 * The fields of a calls query (docs/tracing-service.md#call-fields) over {@code tracing.calls c}: plain columns, JSON
 * paths below inputs/output/attributes/summary, and the computed {@code summary.weave} fields. A JSON
 * path through an {@code expand_columns} path reads the referenced object's value there (docs/tracing-service.md#calls-query).
 */
public final class CallFields implements FieldResolver {

    /** The columns whose values {@code expand_columns} may name. */
    public static final Set<String> EXPANDABLE_ROOTS = Set.of("inputs", "output", "attributes");

    private static final Map<String, Column> COLUMNS = Map.ofEntries(
            Map.entry("id", new Column("c.id", SqlType.TEXT, true)),
            Map.entry("project_id", new Column("c.project_id", SqlType.TEXT, true)),
            Map.entry("trace_id", text("c.trace_id")),
            Map.entry("parent_id", text("c.parent_id")),
            Map.entry("thread_id", text("c.thread_id")),
            Map.entry("turn_id", text("c.turn_id")),
            Map.entry("op_name", text("c.op_name")),
            // An empty display name reads as null, so it also filters as null.
            Map.entry("display_name", text("nullif(c.display_name, '')")),
            Map.entry("started_at", new Column("c.started_at", SqlType.TIMESTAMP, true)),
            Map.entry("ended_at", new Column("c.ended_at", SqlType.TIMESTAMP)),
            Map.entry("deleted_at", new Column("c.deleted_at", SqlType.TIMESTAMP)),
            Map.entry("exception", text("c.exception")),
            Map.entry("svc_user_id", text("c.svc_user_id")),
            Map.entry("svc_run_id", text("c.svc_run_id")),
            Map.entry("svc_run_step", new Column("c.svc_run_step", SqlType.INT)),
            Map.entry("svc_run_step_end", new Column("c.svc_run_step_end", SqlType.INT)),
            Map.entry("summary.weave.status", text("tracing.call_status(c.exception, c.ended_at, c.summary)")),
            Map.entry("summary.weave.latency_ms",
                    new Column("tracing.call_latency_ms(c.started_at, c.ended_at)", SqlType.INT)),
            Map.entry("summary.weave.trace_name", text("tracing.call_trace_name(c.display_name, c.op_name)")),
            // Ours, not the reference's: the usage totals the console's calls table shows and sorts by (migration
            // V12). Null without usage (or, for the cost, without a price), so such calls sort last either way.
            // summary.weave.total_cost needs the query's price book, so resolve() builds it.
            Map.entry("summary.weave.total_tokens", new Column("c.usage_total_tokens", SqlType.INT)));

    private static final String TOTAL_COST = "summary.weave.total_cost";

    private static final Map<String, String> WB_ALIASES = Map.of("wb_user_id", "svc_user_id", "wb_run_id", "svc_run_id",
            "wb_run_step", "svc_run_step", "wb_run_step_end", "svc_run_step_end");

    private static final Pattern FEEDBACK_PATH = Pattern.compile("feedback\\.\\[(.+)]\\.(runnable_ref|payload(?:\\..*)?)");

    private static final Set<String> JSON_ROOTS = Set.of("inputs", "output", "attributes", "summary");

    /** Columns every visible call has, which therefore sort without a nulls clause (keeping index order). */
    private static final Set<String> NEVER_NULL = Set.of("id", "project_id", "started_at");

    /** The project the query reads, whose prices cost its calls. */
    private final String projectId;

    /** The usable expand_columns paths, shallowest first. */
    private final List<List<String>> expansions;

    private CallFields(String projectId, List<List<String>> expansions) {
        this.projectId = projectId;
        this.expansions = expansions;
    }

    /** The fields of a query of this project with these {@code expand_columns}. */
    public static CallFields of(String projectId, List<String> expandColumns) {
        return new CallFields(projectId, expandedPaths(expandColumns));
    }

    /**
     * The prices that cost this query's calls (migration V17's {@code tracing.price_book}): an uncorrelated
     * subquery, which PostgreSQL runs once per query, so that pricing a call reads no table.
     */
    public String priceBook(SqlParams params) {
        return "(SELECT tracing.price_book(" + params.bind(projectId, "text") + "))";
    }

    /**
     * The {@code expand_columns} entries as paths, shallowest first: those below an expandable column
     * without empty steps ({@code inputs.model} is {@code [inputs, model]}); the others name nothing.
     */
    public static List<List<String>> expandedPaths(List<String> expandColumns) {
        if (expandColumns == null) {
            return List.of();
        }
        return expandColumns.stream().filter(column -> column != null && !column.isEmpty())
                .map(column -> List.of(column.split("\\.", -1)))
                .filter(path -> EXPANDABLE_ROOTS.contains(path.get(0)) && path.stream().noneMatch(String::isEmpty))
                .sorted(Comparator.comparingInt(List::size)).toList();
    }

    @Override
    public SqlValue resolve(String field, SqlParams params) {
        String name = WB_ALIASES.getOrDefault(field, field);
        Column column = COLUMNS.get(name);
        if (column != null) {
            return column;
        }
        if (name.equals(TOTAL_COST)) {
            return new Column("tracing.usage_total_cost(c.started_at, c.summary, " + priceBook(params) + ")",
                    SqlType.DOUBLE);
        }
        Matcher feedback = FEEDBACK_PATH.matcher(name);
        if (feedback.matches()) {
            return feedbackField(field, feedback.group(1), feedback.group(2), params);
        }
        List<String> path = FieldPaths.split(name);
        if (JSON_ROOTS.contains(path.get(0))) {
            return jsonPath(path, params);
        }
        throw notAllowed(field);
    }

    /**
     * A path below a JSON column. Each expand_columns path leading to it, shallowest first, swaps the
     * value there for the object it refers to (see {@code tracing.expand_ref}); the rest of the path is
     * read from the last value swapped in.
     */
    private JsonPath jsonPath(List<String> path, SqlParams params) {
        String document = "c." + path.get(0);
        int expandedTo = 1;
        for (List<String> expansion : expansions) {
            if (expansion.size() >= expandedTo && expansion.size() <= path.size()
                    && path.subList(0, expansion.size()).equals(expansion)) {
                List<String> steps = path.subList(expandedTo, expansion.size());
                String value = steps.isEmpty() ? document
                        : "(" + document + " #> " + params.bind(steps.toArray(String[]::new), "text[]") + ")";
                document = "tracing.expand_ref(c.project_id, " + value + ")";
                expandedTo = expansion.size();
            }
        }
        List<String> rest = path.subList(expandedTo, path.size());
        if (path.size() == 1) {
            // No parameter: a search of the whole document does not read the path.
            return new JsonPath(document, "'{}'::text[]", true);
        }
        return new JsonPath(document, params.bind(rest.toArray(String[]::new), "text[]"));
    }

    /**
     * {@code feedback.[<type>].payload.<path>} and {@code feedback.[<type>].runnable_ref}: from the
     * newest feedback of that type on the call (the reference picks an arbitrary one).
     */
    private static SqlValue feedbackField(String field, String type, String rest, SqlParams params) {
        String latest = "(SELECT fb.%s FROM tracing.feedback fb WHERE fb.project_id = c.project_id"
                + " AND fb.weave_ref = 'weave:///' || c.project_id || '/call/' || c.id AND fb.feedback_type = "
                + params.bind(type, "text") + " ORDER BY fb.created_at DESC, fb.id DESC LIMIT 1)";
        if (rest.equals("runnable_ref")) {
            return new Column(latest.formatted("runnable_ref"), SqlType.TEXT);
        }
        List<String> path = FieldPaths.split(rest);
        if (!path.get(0).equals("payload")) {
            throw notAllowed(field);
        }
        return new JsonPath(latest.formatted("payload"),
                params.bind(path.subList(1, path.size()).toArray(String[]::new), "text[]"));
    }

    /** Whether the condition has a {@code $contains} on a whole JSON column (a search of its text). */
    public static boolean searchesDocuments(Expr.Operation operation) {
        if (operation instanceof Expr.And and) {
            return and.operands().stream().anyMatch(CallFields::searchesDocuments);
        }
        if (operation instanceof Expr.Or or) {
            return or.operands().stream().anyMatch(CallFields::searchesDocuments);
        }
        if (operation instanceof Expr.Not not) {
            return searchesDocuments(not.operand());
        }
        return operation instanceof Expr.Contains contains && contains.input() instanceof Expr.GetField field
                && JSON_ROOTS.contains(field.path());
    }

    public static boolean neverNull(String field) {
        return NEVER_NULL.contains(field);
    }

    public static InvalidQueryException notAllowed(String field) {
        return InvalidQueryException.fieldNotAllowed(field);
    }

    private static Column text(String sql) {
        return new Column(sql, SqlType.TEXT);
    }
}
