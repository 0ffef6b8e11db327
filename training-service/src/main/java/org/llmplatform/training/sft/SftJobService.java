package org.llmplatform.training.sft;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.llmplatform.model.errors.ValidationIssue;
import org.llmplatform.model.events.SftJobConfig;
import org.llmplatform.support.blob.BlobStore;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.training.service.JobService;
import org.llmplatform.training.service.ModelService;
import org.llmplatform.training.service.trajectory.SftDataset;
import org.llmplatform.training.store.Job;
import org.llmplatform.training.store.JobKind;
import org.llmplatform.training.store.Model;

/**
 * Supervised fine-tuning jobs: the model is looked up first (a model the caller cannot see is a 404 whatever the
 * body), then the body and config are checked, the training file read from its URL and checked line by line, stored
 * in the blob store, and the job queued like an RL job ({@link JobService#enqueue}): one job is one step of the model,
 * reported on the same events, cancelled the same way, and its checkpoint registered and served like any other.
 */
@ApplicationScoped
class SftJobService {

    private final ModelService models;
    private final JobService jobs;
    private final TrainingDataSource data;
    private final BlobStore blobs;
    private final ObjectMapper json;

    SftJobService(ModelService models, JobService jobs, TrainingDataSource data, BlobStore blobs, ObjectMapper json) {
        this.models = models;
        this.jobs = jobs;
        this.data = data;
        this.blobs = blobs;
        this.json = json;
    }

    Uni<Job> create(CreateSftTrainingJob request) {
        if (request == null || !JobService.modelIdIssues(request.modelId()).isEmpty()) {
            check(request);
        }
        return models.findAccessible(request.modelId()).chain(model -> create(request, model));
    }

    private Uni<Job> create(CreateSftTrainingJob request, Model model) {
        check(request);
        return data.read(request.trainingDataUrl().asText()).chain(content -> {
            int examples;
            try {
                examples = SftDataset.parse(content, json).size();
            } catch (SftDataset.InvalidTrainingFile invalid) {
                throw TrainingDataSource.invalid("Value error, " + invalid.getMessage(), request.trainingDataUrl().asText());
            }
            SftJobConfig config = SftConfigResolver.resolve(request.config(), examples);
            return blobs.put(content).chain(stored -> jobs.enqueue(model, JobKind.SFT, stored, config));
        });
    }

    private static void check(CreateSftTrainingJob request) {
        if (request == null) {
            throw ApiException.invalidField("missing", List.of("body"), "Field required", null);
        }
        List<ValidationIssue> issues = new ArrayList<>(JobService.modelIdIssues(request.modelId()));
        if (request.trainingDataUrl() == null || request.trainingDataUrl().isNull()) {
            issues.add(new ValidationIssue("missing", TrainingDataSource.FIELD, "Field required", null));
        } else if (!request.trainingDataUrl().isTextual()) {
            issues.add(new ValidationIssue("string_type", TrainingDataSource.FIELD, "Input should be a valid string",
                    request.trainingDataUrl().toString()));
        }
        issues.addAll(SftConfigResolver.check(request.config()));
        if (!issues.isEmpty()) {
            throw ApiException.invalid(issues);
        }
    }
}
