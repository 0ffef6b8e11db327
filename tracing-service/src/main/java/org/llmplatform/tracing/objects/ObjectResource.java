package org.llmplatform.tracing.objects;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjCreateReq;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjCreateRes;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjDeleteReq;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjDeleteRes;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjQueryReq;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjQueryRes;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjReadReq;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjReadRes;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjSchemaForInsert;
import org.llmplatform.tracing.objects.ObjectService.NewObject;

/** {@code /obj/create}, {@code /obj/read}, {@code /obj/delete} and {@code /objs/query}. */
@Path("/")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class ObjectResource {

    private final ObjectService objects;

    public ObjectResource(ObjectService objects) {
        this.objects = objects;
    }

    @POST
    @Path("obj/create")
    // obj.object_id keeps the reference's own answer (422 "Invalid object name: …", ObjectService), checked before any query.
    @BodyChecks(projectIds = "obj.project_id")
    public Uni<ObjCreateRes> create(ObjCreateReq request) {
        if (request == null || request.obj() == null) {
            throw ApiException.missingField("obj");
        }
        ObjSchemaForInsert obj = request.obj();
        String builtin = obj.builtinObjectClass() != null ? obj.builtinObjectClass() : obj.setBaseObjectClass();
        return objects.create(new NewObject(obj.projectId(), obj.objectId(), obj.val(), builtin, obj.expectedDigest()))
                .map(digest -> new ObjCreateRes(digest, obj.objectId()));
    }

    @POST
    @Path("obj/read")
    @BodyChecks(projectIds = "project_id", limits = {
            @Limit(field = "object_id", max = FieldLimits.NAME),
            @Limit(field = "digest", max = FieldLimits.DIGEST)})
    public Uni<ObjReadRes> read(ObjReadReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return objects.read(request.projectId(), request.objectId(), request.digest(), request.metadataOnly(),
                request.includeTagsAndAliases()).map(ObjReadRes::new);
    }

    @POST
    @Path("objs/query")
    @BodyChecks(projectIds = "project_id", limits = {
            @Limit(field = "filter.object_ids[]", max = FieldLimits.NAME),
            @Limit(field = "filter.tags[]", max = LabelNames.MAX_TAG_LENGTH),
            @Limit(field = "filter.aliases[]", max = LabelNames.MAX_ALIAS_LENGTH)})
    public Uni<ObjQueryRes> query(ObjQueryReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return objects.query(request.toQuery()).map(ObjQueryRes::new);
    }

    @POST
    @Path("obj/delete")
    @BodyChecks(projectIds = "project_id", limits = {
            @Limit(field = "object_id", max = FieldLimits.NAME),
            @Limit(field = "digests[]", max = FieldLimits.DIGEST)})
    public Uni<ObjDeleteRes> delete(ObjDeleteReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return objects.delete(request.projectId(), request.objectId(), request.digests()).map(ObjDeleteRes::new);
    }
}
