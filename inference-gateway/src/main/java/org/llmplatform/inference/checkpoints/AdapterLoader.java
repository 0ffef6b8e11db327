package org.llmplatform.inference.checkpoints;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.inject.Singleton;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.support.blob.AdapterBlobs;

/** Reads a LoRA checkpoint from the blob store and merges it into a copy of the base engine's weights, on a worker thread. */
@Singleton
public class AdapterLoader {

    private final AdapterBlobs blobs;

    public AdapterLoader(AdapterBlobs blobs) {
        this.blobs = blobs;
    }

    public Uni<LlamaEngine> load(LlamaEngine base, String manifestUri) {
        return blobs.read(manifestUri)
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .map(files -> base.withAdapter(LoraAdapter.parse(files.config(), files.weights())));
    }
}
