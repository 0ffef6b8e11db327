package org.llmplatform.training.sft;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.blob.BlobStore;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.training.service.trajectory.SftDataset;

/** Training files uploaded for supervised fine-tuning: checked as a job would read them, stored, owned by the uploader. */
@ApplicationScoped
class TrainingFileService {

    private final TrainingFileStore files;
    private final BlobStore blobs;
    private final CurrentPrincipal caller;
    private final SftConfig config;
    private final ObjectMapper json;

    TrainingFileService(TrainingFileStore files, BlobStore blobs, CurrentPrincipal caller, SftConfig config, ObjectMapper json) {
        this.files = files;
        this.blobs = blobs;
        this.caller = caller;
        this.config = config;
        this.json = json;
    }

    Uni<TrainingFile> upload(byte[] content) {
        if (content == null || content.length == 0) {
            throw ApiException.invalidField("missing", List.of("body"), "Field required: the JSONL training file", null);
        }
        if (content.length > config.maxFileBytes()) {
            throw ApiException.invalidField("value_error", List.of("body"), "Value error, the training file exceeds " + config.maxFileBytes()
                    + " bytes (training.sft.max-file-bytes)", null);
        }
        int lines;
        try {
            lines = SftDataset.parse(content, json).size();
        } catch (SftDataset.InvalidTrainingFile invalid) {
            throw ApiException.invalidField("value_error", List.of("body"), "Value error, " + invalid.getMessage(), null);
        }
        String owner = caller.get().userName();
        return blobs.put(content).chain(blob -> files.insert(UUID.randomUUID(), owner, blob, lines));
    }
}
