package org.llmplatform.training.service;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.support.blob.AdapterBlobs;
import org.llmplatform.support.blob.AdapterBlobs.AdapterFiles;

/** The trainer's LoRA checkpoints, kept in the blob store through {@link AdapterBlobs}. */
@ApplicationScoped
public class AdapterStorage {

    private final AdapterBlobs blobs;

    public AdapterStorage(AdapterBlobs blobs) {
        this.blobs = blobs;
    }

    /** Stores the adapter; the item is the checkpoint's artifact URI. */
    public Uni<String> save(LoraAdapter adapter) {
        return blobs.store(new AdapterFiles(adapter.adapterConfigJson(), adapter.safetensors()));
    }

    /** Reads the adapter an artifact URI names; fails with IllegalArgumentException when the files do not hold one. */
    public Uni<LoraAdapter> load(String artifactUri) {
        return blobs.read(artifactUri).map(files -> LoraAdapter.parse(files.config(), files.weights()));
    }
}
