package org.llmplatform.tracing.objects;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjectVersionFilter;
import org.llmplatform.tracing.objects.ObjectEnvelopes.SortByReq;
import org.llmplatform.tracing.objects.ObjectService.NewObject;
import org.llmplatform.tracing.objects.ObjectService.ObjectsQuery;

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
    public Uni<ObjReadRes> read(ObjReadReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return objects.read(request.projectId(), request.objectId(), request.digest(), request.metadataOnly())
                .map(ObjReadRes::new);
    }

    @POST
    @Path("objs/query")
    public Uni<ObjQueryRes> query(ObjQueryReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        ObjectVersionFilter filter = request.filter() == null
                ? new ObjectVersionFilter(null, null, null, null, null, null) : request.filter();
        return objects.query(new ObjectsQuery(request.projectId(), filter.objectIds(), filter.isOp(), filter.latestOnly(),
                filter.baseObjectClasses(), filter.excludeBaseObjectClasses(), filter.leafObjectClasses(),
                honouredSorts(request.sortBy()), request.limit(), request.offset(), request.metadataOnly(),
                request.includeStorageSize())).map(ObjQueryRes::new);
    }

    @POST
    @Path("obj/delete")
    public Uni<ObjDeleteRes> delete(ObjDeleteReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return objects.delete(request.projectId(), request.objectId(), request.digests()).map(ObjDeleteRes::new);
    }

    /** The reference sorts objects only by {@code object_id} and {@code created_at}, ignoring other fields. */
    private static List<ObjectQuery.Sort> honouredSorts(List<SortByReq> sortBy) {
        List<ObjectQuery.Sort> sorts = new ArrayList<>();
        if (sortBy == null) {
            return sorts;
        }
        for (SortByReq sort : sortBy) {
            if (sort == null || sort.field() == null) {
                throw ApiException.invalidField("missing", List.of("body", "sort_by", "field"), "Field required", null);
            }
            String direction = sort.direction() == null ? "asc" : sort.direction().toLowerCase(Locale.ROOT);
            if (!direction.equals("asc") && !direction.equals("desc")) {
                throw ApiException.invalidField("literal_error", List.of("body", "sort_by", "direction"),
                        "Input should be 'asc' or 'desc'", sort.direction());
            }
            if (sort.field().equals("object_id") || sort.field().equals("created_at")) {
                sorts.add(new ObjectQuery.Sort(sort.field(), direction.equals("desc")));
            }
        }
        return sorts;
    }
}
