package org.llmplatform.training.sft;

import java.time.Instant;
import java.util.UUID;
import org.llmplatform.model.events.BlobReference;

/** An uploaded training file: its JSONL in the blob store, readable by its uploader. */
record TrainingFile(UUID id, String owner, BlobReference blob, int lineCount, Instant createdAt) {

    static final String URL_SCHEME = "training-file:";

    /** What {@code training_data_url} takes to name this file. */
    String url() {
        return URL_SCHEME + id;
    }
}
