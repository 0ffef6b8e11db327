package org.llmplatform.tracing.objects;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.objects.ObjectEnvelopes.AliasesListRes;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjRemoveAliasesBody;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjSetAliasesBody;
import org.llmplatform.tracing.objects.ObjectEnvelopes.ObjTagsBody;
import org.llmplatform.tracing.objects.ObjectEnvelopes.TagsListRes;

/**
 * Tags and aliases on object versions: {@code PUT /objs/{object_id}/versions/{digest}/tags} and its
 * {@code /tags/remove}, {@code PUT /objs/{object_id}/aliases} and its {@code /aliases/remove}, {@code GET /tags}
 * and {@code GET /aliases}. The writes answer {@code {}}.
 */
@Path("/")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class ObjectLabelResource {

    private final ObjectLabelService labels;

    public ObjectLabelResource(ObjectLabelService labels) {
        this.labels = labels;
    }

    @PUT
    @Path("objs/{object_id}/versions/{digest}/tags")
    @BodyChecks(projectIds = "project_id")
    public Uni<Map<String, Object>> addTags(@PathParam("object_id") String objectId, @PathParam("digest") String digest,
            ObjTagsBody body) {
        ObjTagsBody request = required(body);
        return labels.addTags(request.projectId(), objectId, digest, request.tags()).replaceWith(Map.of());
    }

    @POST
    @Path("objs/{object_id}/versions/{digest}/tags/remove")
    @BodyChecks(projectIds = "project_id")
    public Uni<Map<String, Object>> removeTags(@PathParam("object_id") String objectId, @PathParam("digest") String digest,
            ObjTagsBody body) {
        ObjTagsBody request = required(body);
        return labels.removeTags(request.projectId(), objectId, digest, request.tags()).replaceWith(Map.of());
    }

    @PUT
    @Path("objs/{object_id}/aliases")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "digest", max = FieldLimits.DIGEST))
    public Uni<Map<String, Object>> setAliases(@PathParam("object_id") String objectId, ObjSetAliasesBody body) {
        ObjSetAliasesBody request = required(body);
        return labels.setAliases(request.projectId(), objectId, request.digest(), request.aliases())
                .replaceWith(Map.of());
    }

    @POST
    @Path("objs/{object_id}/aliases/remove")
    @BodyChecks(projectIds = "project_id")
    public Uni<Map<String, Object>> removeAliases(@PathParam("object_id") String objectId, ObjRemoveAliasesBody body) {
        ObjRemoveAliasesBody request = required(body);
        return labels.removeAliases(request.projectId(), objectId, request.aliases()).replaceWith(Map.of());
    }

    @GET
    @Path("tags")
    public Uni<TagsListRes> tags(@QueryParam("project_id") String projectId) {
        return labels.tags(projectId).map(TagsListRes::new);
    }

    @GET
    @Path("aliases")
    public Uni<AliasesListRes> aliases(@QueryParam("project_id") String projectId) {
        return labels.aliases(projectId).map(AliasesListRes::new);
    }

    private static <T> T required(T body) {
        if (body == null) {
            throw ApiException.missingField("project_id");
        }
        return body;
    }
}
