package org.llmplatform.tracing.refs;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StrictRequest;

/** {@code /refs/read_batch}: the values of up to 1,000 object and op refs, in order. */
@Path("/refs")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class RefResource {

    @StrictRequest
    @RegisterForReflection
    record RefsReadBatchReq(List<String> refs) {
    }

    @RegisterForReflection
    record RefsReadBatchRes(List<JsonNode> vals) {
    }

    private final RefResolver refs;

    public RefResource(RefResolver refs) {
        this.refs = refs;
    }

    @POST
    @Path("read_batch")
    @BodyChecks(refs = "refs[]", limits = @Limit(field = "refs[]", max = FieldLimits.REF))
    public Uni<RefsReadBatchRes> readBatch(RefsReadBatchReq request) {
        if (request == null) {
            throw ApiException.missingField("refs");
        }
        return refs.readBatch(request.refs()).map(RefsReadBatchRes::new);
    }
}
