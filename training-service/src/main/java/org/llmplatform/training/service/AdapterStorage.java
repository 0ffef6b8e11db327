package org.llmplatform.training.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.model.events.AdapterManifest;
import org.llmplatform.model.events.BlobReference;
import org.llmplatform.support.blob.BlobStore;

/**
 * LoRA checkpoints in the blob store: the two PEFT files as blobs, and an {@link AdapterManifest} naming them
 * as a third blob whose URI is the checkpoint's artifact URI.
 */
@ApplicationScoped
public class AdapterStorage {

    private final BlobStore blobs;
    private final ObjectMapper json;

    public AdapterStorage(BlobStore blobs, ObjectMapper json) {
        this.blobs = blobs;
        this.json = json;
    }

    /** Stores the adapter; the item is the manifest's URI. */
    public Uni<String> save(LoraAdapter adapter) {
        return blobs.put(adapter.adapterConfigJson()).chain(config -> blobs.put(adapter.safetensors()).chain(weights -> {
            Map<String, BlobReference> files = new LinkedHashMap<>();
            files.put(AdapterManifest.CONFIG_FILE, config);
            files.put(AdapterManifest.WEIGHTS_FILE, weights);
            return blobs.put(write(new AdapterManifest(AdapterManifest.PEFT_LORA, files)));
        })).map(BlobReference::uri);
    }

    /** Reads the adapter a manifest URI names; fails with IllegalArgumentException when the files do not hold one. */
    public Uni<LoraAdapter> load(String artifactUri) {
        return blobs.get(new BlobReference(artifactUri, null, -1)).chain(bytes -> {
            AdapterManifest manifest = read(bytes, artifactUri);
            BlobReference config = manifest.files() == null ? null : manifest.files().get(AdapterManifest.CONFIG_FILE);
            BlobReference weights = manifest.files() == null ? null : manifest.files().get(AdapterManifest.WEIGHTS_FILE);
            if (!AdapterManifest.PEFT_LORA.equals(manifest.format()) || config == null || weights == null) {
                return Uni.createFrom().failure(new IllegalArgumentException("checkpoint " + artifactUri
                        + " is not a peft-lora manifest naming " + AdapterManifest.CONFIG_FILE + " and " + AdapterManifest.WEIGHTS_FILE));
            }
            return blobs.get(config).chain(configBytes -> blobs.get(weights).map(weightBytes -> LoraAdapter.parse(configBytes, weightBytes)));
        });
    }

    private byte[] write(AdapterManifest manifest) {
        try {
            return json.writeValueAsBytes(manifest);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private AdapterManifest read(byte[] bytes, String uri) {
        try {
            return json.readValue(bytes, AdapterManifest.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("checkpoint " + uri + " is not an adapter manifest: " + e.getMessage(), e);
        }
    }
}
