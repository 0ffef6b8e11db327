package org.llmplatform.tracing.costs;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StrictRequest;
import org.llmplatform.tracing.common.Timestamps;
import org.llmplatform.tracing.costs.CostService.NewPrice;
import org.llmplatform.tracing.query.RowsQuery;
import org.llmplatform.tracing.query.SortBy;

/** {@code /cost/create}, {@code /cost/query}, {@code /cost/purge} and {@code /cost/defaults} (ours). */
@Path("/cost")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CostResource {

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CostCreateReq(String projectId, LinkedHashMap<String, CostCreateInput> costs,
            @JsonAlias("wb_user_id") String svcUserId) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CostCreateInput(Double promptTokenCost, Double completionTokenCost, String promptTokenCostUnit,
            String completionTokenCostUnit, String effectiveDate, String providerId) {
    }

    @RegisterForReflection
    record CostCreateRes(List<List<String>> ids) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CostQueryReq(String projectId, List<String> fields, JsonNode query, List<SortBy> sortBy, Long limit,
            Long offset) {
    }

    @RegisterForReflection
    record CostQueryRes(List<JsonNode> results) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CostPurgeReq(String projectId, JsonNode query) {
    }

    /** The default prices in effect, in {@code cost/query}'s row shape, with the shipped table's date and source. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CostDefaultsRes(String asOf, String source, List<DefaultCost> results) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record DefaultCost(String id, String pricingLevel, String pricingLevelId, String providerId, String llmId,
            String effectiveDate, double promptTokenCost, double completionTokenCost, String promptTokenCostUnit,
            String completionTokenCostUnit, String createdBy, String createdAt) {

        static DefaultCost of(CostRow row) {
            return new DefaultCost(row.id(), row.pricingLevel(), row.pricingLevelId(), row.providerId(), row.llmId(),
                    Timestamps.format(row.effectiveDate()), row.promptTokenCost(), row.completionTokenCost(),
                    row.promptTokenCostUnit(), row.completionTokenCostUnit(), row.createdBy(),
                    Timestamps.format(row.createdAt()));
        }
    }

    private final CostService costs;
    private final DefaultPrices defaults;

    public CostResource(CostService costs, DefaultPrices defaults) {
        this.costs = costs;
        this.defaults = defaults;
    }

    @POST
    @Path("create")
    @BodyChecks(projectIds = "project_id")
    public Uni<CostCreateRes> create(CostCreateReq request) {
        required(request);
        Map<String, NewPrice> prices = null;
        if (request.costs() != null) {
            prices = new LinkedHashMap<>();
            for (Map.Entry<String, CostCreateInput> entry : request.costs().entrySet()) {
                CostCreateInput input = entry.getValue();
                prices.put(entry.getKey(), input == null ? null : new NewPrice(input.promptTokenCost(),
                        input.completionTokenCost(), input.promptTokenCostUnit(), input.completionTokenCostUnit(),
                        input.effectiveDate(), input.providerId()));
            }
        }
        return costs.create(request.projectId(), prices).map(CostCreateRes::new);
    }

    @POST
    @Path("query")
    @BodyChecks(projectIds = "project_id")
    public Uni<CostQueryRes> query(CostQueryReq request) {
        required(request);
        return costs.query(RowsQuery.of(request.projectId(), request.fields(), request.query(), request.sortBy(),
                request.limit(), request.offset())).map(CostQueryRes::new);
    }

    @POST
    @Path("purge")
    @BodyChecks(projectIds = "project_id")
    public Uni<Map<String, Object>> purge(CostPurgeReq request) {
        required(request);
        return costs.purge(request.projectId(), request.query()).replaceWith(Map.of());
    }

    /** Any signed-in caller may read them: they are the platform's, not a project's. */
    @GET
    @Path("defaults")
    public Uni<CostDefaultsRes> defaults() {
        DefaultPrices.Listing listing = defaults.listing();
        return Uni.createFrom().item(new CostDefaultsRes(listing.asOf(), listing.source(),
                listing.prices().stream().map(DefaultCost::of).toList()));
    }

    private static void required(Object request) {
        if (request == null) {
            throw ApiException.invalidField("missing", List.of("body"), "Field required", null);
        }
    }
}
