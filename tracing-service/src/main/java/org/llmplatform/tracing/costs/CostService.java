package org.llmplatform.tracing.costs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StoredJson;
import org.llmplatform.tracing.common.Timestamps;
import org.llmplatform.tracing.query.Expr.Compare;
import org.llmplatform.tracing.query.Expr.Comparison;
import org.llmplatform.tracing.query.Expr.GetField;
import org.llmplatform.tracing.query.Expr.In;
import org.llmplatform.tracing.query.Expr.Literal;
import org.llmplatform.tracing.query.Expr.Operation;
import org.llmplatform.tracing.query.Expr.Or;
import org.llmplatform.tracing.query.Expr;
import org.llmplatform.tracing.query.ExprParser;
import org.llmplatform.tracing.query.RowsQuery;

/** Project LLM prices (docs/tracing-service.md#costs): create, query and purge; the caller is the creator. */
@ApplicationScoped
public class CostService {

    static final String PROJECT_LEVEL = "project";

    /** One price of {@code /cost/create}; the units default to USD, the provider to "default", the date to now. */
    public record NewPrice(Double promptTokenCost, Double completionTokenCost, String promptTokenCostUnit,
            String completionTokenCostUnit, String effectiveDate, String providerId) {
    }

    private final CostStore store;
    private final CurrentPrincipal caller;
    private final ObjectMapper json;

    public CostService(CostStore store, CurrentPrincipal caller, ObjectMapper json) {
        this.store = store;
        this.caller = caller;
        this.json = json;
    }

    /** One new price per model, in the map's order; answers {@code [[cost id, llm id], …]}. */
    public Uni<List<List<String>>> create(String projectId, Map<String, NewPrice> costs) {
        String project = project(projectId);
        if (costs == null) {
            throw ApiException.missingField("costs");
        }
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        List<CostRow> rows = new ArrayList<>();
        costs.forEach((llmId, price) -> rows.add(toRow(project, llmId, price, now)));
        return store.insert(rows).replaceWith(rows.stream().map(row -> List.of(row.id(), row.llmId())).toList());
    }

    public Uni<List<JsonNode>> query(RowsQuery query) {
        project(query.projectId());
        return store.query(query).map(rows -> rows.stream().map(this::parse).toList());
    }

    /** Only id queries ($eq on id, $in on id, or an $or of $eq on id) may purge. */
    public Uni<Void> purge(String projectId, JsonNode query) {
        String project = project(projectId);
        if (query == null || query.isNull()) {
            throw ApiException.missingField("query");
        }
        return store.purge(project, purgedIds(ExprParser.parseQuery(query)));
    }

    private CostRow toRow(String project, String llmId, NewPrice price, OffsetDateTime now) {
        List<Object> at = List.of("body", "costs", llmId);
        if (price == null) {
            throw ApiException.invalidField("missing", at, "Field required", null);
        }
        requirePresent(price.promptTokenCost(), at, "prompt_token_cost");
        requirePresent(price.completionTokenCost(), at, "completion_token_cost");
        OffsetDateTime effective = price.effectiveDate() == null ? now : Timestamps.parse(price.effectiveDate(),
                append(at, "effective_date"));
        return new CostRow(UUID.randomUUID().toString(), PROJECT_LEVEL, project,
                price.providerId() == null ? "default" : price.providerId(), llmId, effective, price.promptTokenCost(),
                price.completionTokenCost(), price.promptTokenCostUnit() == null ? "USD" : price.promptTokenCostUnit(),
                price.completionTokenCostUnit() == null ? "USD" : price.completionTokenCostUnit(),
                caller.get().userName(), now);
    }

    private static List<String> purgedIds(Operation operation) {
        List<String> ids = new ArrayList<>();
        if (operation instanceof In in && isIdField(in.operand())
                && in.candidates().stream().allMatch(CostService::isTextLiteral)) {
            in.candidates().forEach(candidate -> ids.add(((Literal) candidate).value().textValue()));
            return ids;
        }
        List<Operation> terms = operation instanceof Or or ? or.operands() : List.of(operation);
        for (Operation term : terms) {
            if (!(term instanceof Compare compare && compare.comparison() == Comparison.EQ && isIdField(compare.left())
                    && isTextLiteral(compare.right()))) {
                throw ApiException.badRequest("Can only purge costs by specifying one or more cost ids");
            }
            ids.add(((Literal) compare.right()).value().textValue());
        }
        return ids;
    }

    private static boolean isIdField(Expr expr) {
        return expr instanceof GetField field && field.path().equals("id");
    }

    private static boolean isTextLiteral(Expr expr) {
        return expr instanceof Literal literal && literal.value().isTextual();
    }

    private String project(String projectId) {
        return caller.requireProject(projectId).toString();
    }

    private JsonNode parse(String text) {
        return StoredJson.parse(json, text);
    }

    private static void requirePresent(Object value, List<Object> at, String field) {
        if (value == null) {
            throw ApiException.invalidField("missing", append(at, field), "Field required", null);
        }
    }

    private static List<Object> append(List<Object> at, Object key) {
        List<Object> loc = new ArrayList<>(at);
        loc.add(key);
        return loc;
    }
}
