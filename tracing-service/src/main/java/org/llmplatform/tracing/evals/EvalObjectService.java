package org.llmplatform.tracing.evals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.evals.EvalEnvelopes.DatasetCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvaluationCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.ModelCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.Published;
import org.llmplatform.tracing.evals.EvalEnvelopes.ScorerCreateBody;
import org.llmplatform.tracing.files.FileService;
import org.llmplatform.tracing.objects.ObjectQuery;
import org.llmplatform.tracing.objects.ObjectService;
import org.llmplatform.tracing.objects.ObjectService.NewObject;
import org.llmplatform.tracing.objects.ObjectVersionFilter;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.tables.TableService;

/**
 * Ops, datasets, scorers, evaluations and models of the v2 routes, published as the SDK publishes them: an op is a
 * {@code CustomWeaveType} whose {@code obj.py} file holds its source, the others are objects whose {@code _bases}
 * make them {@code Dataset}, {@code Scorer}, {@code Evaluation} or {@code Model} (docs/tracing-service.md#evaluations-as-data).
 */
@ApplicationScoped
public class EvalObjectService {

    static final String SOURCE_FILE = "obj.py";
    static final String PLACEHOLDER_OP_SOURCE = "def func(*args, **kwargs):\n    ... # Code-capture unavailable for this op\n";
    static final String SCORER_SUMMARIZE_SOURCE = "def summarize(score_rows: list) -> dict | None:\n"
            + "    '''Default summarize implementation that auto-summarizes score rows.'''\n"
            + "    from weave.flow.scorer import auto_summarize\n    return auto_summarize(score_rows)\n";
    static final String EVALUATE_SOURCE = placeholder("evaluate(evaluation, model)", "Placeholder evaluate function.",
            "# TODO: Implement actual evaluation logic", "{\"status\": \"not_implemented\"}");
    static final String PREDICT_AND_SCORE_SOURCE = placeholder("predict_and_score(evaluation, example)",
            "Placeholder predict_and_score function.", "# TODO: Implement actual predict and score logic",
            "{\"prediction\": None, \"scores\": {}}");
    static final String EVALUATION_SUMMARIZE_SOURCE = placeholder("summarize(evaluation_results)",
            "Placeholder summarize function.", "# TODO: Implement actual summarization logic",
            "{\"summary\": \"not_implemented\"}");
    static final String MODEL_PREDICT_SOURCE = placeholder("predict(model, **inputs)", "Placeholder model predict function.",
            "# System-generated op for model predictions", "model.predict(**inputs)");
    static final String SCORER_SCORE_SOURCE = placeholder("score(scorer, **inputs)", "Placeholder scorer score function.",
            "# System-generated op for scoring", "scorer.score(**inputs)");

    private static final List<String> OBJECT_BASES = List.of("Object", "BaseModel");
    private static final Set<String> MODEL_OWN_FIELDS = Set.of("_type", "_class_name", "_bases", "name", "description", "files");

    private final ObjectService objects;
    private final FileService files;
    private final TableService tables;
    private final ObjectMapper json;

    public EvalObjectService(ObjectService objects, FileService files, TableService tables, ObjectMapper json) {
        this.objects = objects;
        this.files = files;
        this.tables = tables;
        this.json = json;
    }

    /** The classes the list routes filter on, each the {@code base_object_class} its objects are stored with. */
    enum Kind {
        DATASET("Dataset"), SCORER("Scorer"), EVALUATION("Evaluation"), MODEL("Model");

        final String baseClass;

        Kind(String baseClass) {
            this.baseClass = baseClass;
        }
    }

    private static String placeholder(String signature, String doc, String comment, String returned) {
        return "import weave\n@weave.op\ndef " + signature + ":\n    \"\"\"" + doc + "\"\"\"\n    " + comment + "\n    return "
                + returned + "\n";
    }

    /** The reference's object id for a name: spaces and slashes become underscores, angle brackets go, lower case. */
    static String objectId(String name, String fallback) {
        if (name == null) {
            return fallback;
        }
        return name.replace(" ", "_").replace("/", "_").replace("<", "").replace(">", "").toLowerCase(Locale.ROOT);
    }

    static String ref(String projectId, String kind, String objectId, String digest) {
        return "weave:///" + projectId + "/" + kind + "/" + objectId + ":" + digest;
    }

    // ---- ops

    public Uni<Published> createOp(String projectId, String name, String sourceCode) {
        return publishOp(projectId, objectId(name, "Op"), sourceCode == null ? PLACEHOLDER_OP_SOURCE : sourceCode);
    }

    /** Publishes an op under exactly this object id, its source in an {@code obj.py} file. */
    Uni<Published> publishOp(String projectId, String objectId, String sourceCode) {
        return files.create(projectId, SOURCE_FILE, sourceCode.getBytes(StandardCharsets.UTF_8))
                .chain(fileDigest -> publish(projectId, objectId, opValue(fileDigest)));
    }

    private ObjectNode opValue(String fileDigest) {
        ObjectNode val = json.createObjectNode();
        val.put("_type", "CustomWeaveType");
        val.putObject("weave_type").put("type", "Op");
        val.putObject("files").put(SOURCE_FILE, fileDigest);
        return val;
    }

    public Uni<ObjectNode> readOp(String projectId, String objectId, String digest) {
        return objects.read(projectId, objectId, digest, false, false).chain(obj -> {
            if (!"op".equals(obj.path("kind").asText())) {
                throw ApiException.notFound("Op " + objectId + ":" + digest + " not found");
            }
            return opAnswer(projectId, obj);
        });
    }

    public Multi<ObjectNode> listOps(String projectId, Long limit, Long offset) {
        ObjectVersionFilter ops = new ObjectVersionFilter(null, null, null, null, true, null, null, null);
        return versions(projectId, ops, limit, offset).onItem().transformToUniAndConcatenate(obj -> opAnswer(projectId, obj));
    }

    /** Deletes versions of an op; a name that is no op's is 404, as the reference's op delete answers. */
    public Uni<Integer> deleteOp(String projectId, String objectId, List<String> digests) {
        ObjectVersionFilter thisOp = new ObjectVersionFilter(null, null, null, List.of(objectId), true, null, null, null);
        return versions(projectId, thisOp, 1L, null).collect().first().chain(found -> {
            if (found == null) {
                String named = digests == null ? "None"
                        : digests.stream().map(digest -> "'" + digest + "'").collect(Collectors.joining(", ", "[", "]"));
                throw ApiException.notFound("Op object " + objectId + " (" + named + ") not found when deleting.");
            }
            return objects.delete(projectId, objectId, digests);
        });
    }

    private Uni<ObjectNode> opAnswer(String projectId, ObjectNode obj) {
        ObjectNode answer = header(obj);
        JsonNode val = obj.path("val");
        String fileDigest = val.path("files").path(SOURCE_FILE).asText(null);
        if (!"CustomWeaveType".equals(val.path("_type").asText()) || fileDigest == null) {
            return Uni.createFrom().item(answer.put("code", ""));
        }
        return source(projectId, fileDigest).map(code -> answer.put("code", code))
                .onFailure(ApiException.class).recoverWithItem(() -> answer.put("code", ""));
    }

    // ---- datasets

    public Uni<Published> createDataset(String projectId, DatasetCreateBody body) {
        String objectId = objectId(body.name(), "Dataset");
        return tables.create(projectId, body.rows()).chain(table -> {
            ObjectNode val = objectValue("Dataset", body.name() == null ? "Dataset" : body.name(), body.description());
            val.put("rows", "weave:///" + projectId + "/table/" + table.digest());
            return publish(projectId, objectId, val);
        });
    }

    ObjectNode datasetAnswer(ObjectNode obj) {
        JsonNode val = obj.path("val");
        ObjectNode answer = named(obj);
        answer.put("rows", val.path("rows").asText(""));
        return answer;
    }

    // ---- scorers

    public Uni<ObjectNode> createScorer(String projectId, ScorerCreateBody body) {
        String objectId = objectId(body.name(), "Scorer");
        return publishOp(projectId, objectId + "_score", body.opSourceCode())
                .chain(score -> publishOp(projectId, objectId + "_summarize", SCORER_SUMMARIZE_SOURCE).chain(summarize -> {
                    ObjectNode val = objectValue("Scorer", body.name(), body.description());
                    val.put("score", score.digest());
                    val.put("summarize", summarize.digest());
                    val.putNull("column_map");
                    return publish(projectId, objectId, val);
                }))
                .map(published -> withRef(published, "scorer", ref(projectId, "object", objectId, published.digest())));
    }

    ObjectNode scorerAnswer(ObjectNode obj) {
        ObjectNode answer = named(obj);
        answer.put("score_op", obj.path("val").path("score").asText(""));
        return answer;
    }

    // ---- evaluations

    public Uni<ObjectNode> createEvaluation(String projectId, EvaluationCreateBody body) {
        String objectId = objectId(body.name(), "Evaluation");
        return publishOp(projectId, objectId + ".evaluate", EVALUATE_SOURCE)
                .chain(evaluate -> publishOp(projectId, objectId + ".predict_and_score", PREDICT_AND_SCORE_SOURCE)
                        .chain(predictAndScore -> publishOp(projectId, objectId + ".summarize", EVALUATION_SUMMARIZE_SOURCE)
                                .chain(summarize -> publish(projectId, objectId,
                                        evaluationValue(body, evaluate, predictAndScore, summarize)))))
                .map(published -> withRef(published, "evaluation_ref", ref(projectId, "object", objectId, published.digest())));
    }

    private ObjectNode evaluationValue(EvaluationCreateBody body, Published evaluate, Published predictAndScore,
            Published summarize) {
        ObjectNode val = objectValue("Evaluation", body.name(), body.description());
        val.put("dataset", body.dataset());
        ArrayNode scorers = val.putArray("scorers");
        if (body.scorers() != null) {
            body.scorers().forEach(scorers::add);
        }
        val.put("trials", body.trials() == null ? 1 : body.trials());
        val.put("evaluation_name", body.evaluationName());
        val.putNull("metadata");
        val.putNull("preprocess_model_input");
        val.putNull("on_complete");
        val.put("evaluate", evaluate.digest());
        val.put("predict_and_score", predictAndScore.digest());
        val.put("summarize", summarize.digest());
        if (body.evalAttributes() != null) {
            val.setAll(body.evalAttributes());
        }
        return val;
    }

    ObjectNode evaluationAnswer(ObjectNode obj) {
        JsonNode val = obj.path("val");
        ObjectNode answer = named(obj);
        answer.put("dataset", val.path("dataset").asText(""));
        answer.set("scorers", val.path("scorers").isArray() ? val.get("scorers") : json.createArrayNode());
        answer.put("trials", val.path("trials").asInt(1));
        answer.set("evaluation_name", val.path("evaluation_name").isMissingNode() ? null : val.get("evaluation_name"));
        answer.put("evaluate_op", val.path("evaluate").asText(""));
        answer.put("predict_and_score_op", val.path("predict_and_score").asText(""));
        answer.put("summarize_op", val.path("summarize").asText(""));
        return answer;
    }

    // ---- models

    public Uni<ObjectNode> createModel(String projectId, ModelCreateBody body) {
        String objectId = objectId(body.name(), "Model");
        return files.create(projectId, SOURCE_FILE, body.sourceCode().getBytes(StandardCharsets.UTF_8)).chain(fileDigest -> {
            ObjectNode val = objectValue("Model", body.name(), body.description());
            val.putObject("files").put(SOURCE_FILE, fileDigest);
            if (body.attributes() != null) {
                val.setAll(body.attributes());
            }
            return publish(projectId, objectId, val);
        }).map(published -> withRef(published, "model_ref", ref(projectId, "object", objectId, published.digest())));
    }

    Uni<ObjectNode> modelAnswer(String projectId, ObjectNode obj) {
        JsonNode val = obj.path("val");
        ObjectNode answer = named(obj);
        ObjectNode attributes = json.createObjectNode();
        val.fields().forEachRemaining(field -> {
            if (!MODEL_OWN_FIELDS.contains(field.getKey())) {
                attributes.set(field.getKey(), field.getValue());
            }
        });
        answer.set("attributes", attributes.isEmpty() ? null : attributes);
        String fileDigest = val.path("files").path(SOURCE_FILE).asText(null);
        if (fileDigest == null) {
            return Uni.createFrom().item(answer.put("source_code", ""));
        }
        return source(projectId, fileDigest).map(code -> answer.put("source_code", code));
    }

    // ---- shared by the object kinds

    public Uni<ObjectNode> read(String projectId, String objectId, String digest) {
        return objects.read(projectId, objectId, digest, false, false);
    }

    /** Every version of the kind's objects, oldest first per object as {@code objs/query} answers them. */
    public Multi<ObjectNode> list(String projectId, Kind kind, Long limit, Long offset) {
        return versions(projectId, new ObjectVersionFilter(List.of(kind.baseClass), null, null, null, false, null, null, null), limit, offset);
    }

    public Uni<Integer> delete(String projectId, String objectId, List<String> digests) {
        return objects.delete(projectId, objectId, digests);
    }

    private Multi<ObjectNode> versions(String projectId, ObjectVersionFilter filter, Long limit, Long offset) {
        return objects.query(new ObjectQuery(projectId, filter, List.of(), Page.of(limit, offset), false, false, false))
                .onItem().transformToMulti(found -> Multi.createFrom().iterable(found));
    }

    private Uni<Published> publish(String projectId, String objectId, ObjectNode val) {
        return objects.create(new NewObject(projectId, objectId, val, null, null))
                .chain(digest -> objects.read(projectId, objectId, digest, true, false)
                        .map(obj -> new Published(digest, objectId, obj.path("version_index").asInt())));
    }

    private ObjectNode objectValue(String className, String name, String description) {
        ObjectNode val = json.createObjectNode();
        val.put("_type", className);
        val.put("_class_name", className);
        ArrayNode bases = val.putArray("_bases");
        OBJECT_BASES.forEach(bases::add);
        val.put("name", name);
        val.put("description", description);
        return val;
    }

    private ObjectNode withRef(Published published, String field, String ref) {
        ObjectNode answer = json.valueToTree(published);
        return answer.put(field, ref);
    }

    private ObjectNode header(ObjectNode obj) {
        ObjectNode answer = json.createObjectNode();
        answer.set("object_id", obj.get("object_id"));
        answer.set("digest", obj.get("digest"));
        answer.set("version_index", obj.get("version_index"));
        answer.set("created_at", obj.get("created_at"));
        return answer;
    }

    private ObjectNode named(ObjectNode obj) {
        JsonNode val = obj.path("val");
        ObjectNode answer = header(obj);
        answer.put("name", val.path("name").asText(obj.path("object_id").asText()));
        answer.set("description", val.path("description").isMissingNode() ? null : val.get("description"));
        return answer;
    }

    private Uni<String> source(String projectId, String fileDigest) {
        return files.content(projectId, fileDigest).collect()
                .in(ByteArrayOutputStream::new, ByteArrayOutputStream::writeBytes)
                .map(bytes -> bytes.toString(StandardCharsets.UTF_8));
    }
}
