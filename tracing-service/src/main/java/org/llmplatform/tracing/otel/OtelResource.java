package org.llmplatform.tracing.otel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.otel.OtelIngestService.ExportResult;
import org.llmplatform.tracing.otel.OtlpModel.ExportRequest;

/**
 * OTLP/HTTP trace export at {@code /otel/v1/traces} (what exporters post to) and {@code /otel/v1/trace}
 * (the reference router's path): protobuf answered in protobuf, OTLP JSON in JSON. The JSON body may
 * also be the reference's {@code {"project_id", "traces": ExportTraceServiceRequest}} envelope.
 */
@Path("/otel/v1")
public class OtelResource {

    static final String PROTOBUF = "application/x-protobuf";
    /** A compressed body may not inflate past the limit an uncompressed one has (32 MiB). */
    static final int MAX_INFLATED_BYTES = 32 * 1024 * 1024;

    private final OtelIngestService ingest;
    private final ObjectMapper json;

    public OtelResource(OtelIngestService ingest, ObjectMapper json) {
        this.ingest = ingest;
        this.json = json;
    }

    @POST
    @Path("traces")
    @BodyChecks(projectHeaders = "project_id", projectIds = "project_id")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> traces(byte[] body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            @HeaderParam("Content-Encoding") String encoding, @HeaderParam("project_id") String projectHeader) {
        byte[] decoded = decompressed(body == null ? new byte[0] : body, encoding);
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        if (type.contains("protobuf")) {
            ExportRequest request = readProtobuf(decoded);
            return ingest.export(projectHeader, request).map(result -> Response.ok(
                    OtlpProtobuf.response(result.rejectedSpans(), result.errorMessage()), PROTOBUF).build());
        }
        if (type.contains("json")) {
            JsonNode tree = readJson(decoded);
            String project = projectHeader;
            if (tree.isObject() && tree.has("traces")) {
                project = project != null ? project : tree.path("project_id").asText(null);
                tree = tree.get("traces");
            }
            ExportRequest request = readJsonRequest(tree);
            return ingest.export(project, request).map(result -> Response.ok(jsonResponse(result),
                    MediaType.APPLICATION_JSON).build());
        }
        throw new ApiException(415, "Unsupported Content-Type '" + contentType
                + "': send OTLP as application/x-protobuf or application/json");
    }

    @POST
    @Path("trace")
    @BodyChecks(projectHeaders = "project_id", projectIds = "project_id")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> trace(byte[] body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            @HeaderParam("Content-Encoding") String encoding, @HeaderParam("project_id") String projectHeader) {
        return traces(body, contentType, encoding, projectHeader);
    }

    private static ObjectNode jsonResponse(ExportResult result) {
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        if (result.rejectedSpans() == 0 && result.errorMessage() == null) {
            response.putNull("partial_success");
        } else {
            ObjectNode partial = response.putObject("partial_success");
            partial.put("rejected_spans", result.rejectedSpans());
            partial.put("error_message", result.errorMessage());
        }
        return response;
    }

    private static ExportRequest readProtobuf(byte[] body) {
        try {
            return OtlpProtobuf.read(body);
        } catch (MalformedOtlpException malformed) {
            throw ApiException.badRequest(malformed.getMessage());
        }
    }

    private JsonNode readJson(byte[] body) {
        try {
            JsonNode tree = json.readTree(body);
            if (tree == null || tree.isMissingNode()) {
                throw ApiException.badRequest("Invalid OTLP JSON body: the body is empty");
            }
            return tree;
        } catch (JsonProcessingException malformed) {
            throw ApiException.badRequest("Invalid OTLP JSON body: " + malformed.getOriginalMessage());
        } catch (IOException unreadable) {
            throw ApiException.badRequest("Invalid OTLP JSON body: " + unreadable.getMessage());
        }
    }

    private static ExportRequest readJsonRequest(JsonNode tree) {
        try {
            return OtlpJson.read(tree);
        } catch (MalformedOtlpException malformed) {
            throw ApiException.badRequest(malformed.getMessage());
        }
    }

    private static byte[] decompressed(byte[] body, String encoding) {
        if (encoding == null || encoding.isBlank() || encoding.equalsIgnoreCase("identity")) {
            return body;
        }
        if (!encoding.equalsIgnoreCase("gzip")) {
            throw new ApiException(415, "Unsupported Content-Encoding '" + encoding + "': send gzip or none");
        }
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            byte[] inflated = in.readNBytes(MAX_INFLATED_BYTES + 1);
            if (inflated.length > MAX_INFLATED_BYTES) {
                throw new ApiException(413, "The gzip body inflates to more than " + MAX_INFLATED_BYTES + " bytes");
            }
            return inflated;
        } catch (IOException corrupt) {
            throw ApiException.badRequest("Invalid gzip body: " + corrupt.getMessage());
        }
    }
}
