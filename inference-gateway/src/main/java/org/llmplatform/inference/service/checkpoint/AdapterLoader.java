package org.llmplatform.inference.service.checkpoint;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.Map;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.model.events.AdapterManifest;
import org.llmplatform.model.events.BlobReference;
import org.llmplatform.support.blob.BlobStore;

/**
 * Reads a LoRA checkpoint from the blob store (its {@link AdapterManifest}, then the PEFT files it names)
 * and merges it into a copy of the base engine's weights, on a worker thread.
 */
@ApplicationScoped
public class AdapterLoader {

    private final BlobStore blobs;
    private final ObjectMapper json;

    public AdapterLoader(BlobStore blobs, ObjectMapper json) {
        this.blobs = blobs;
        this.json = json;
    }

    public Uni<LlamaEngine> load(LlamaEngine base, String manifestUri) {
        return blobs.get(new BlobReference(manifestUri, null, -1))
                .map(this::manifest)
                .flatMap(manifest -> Uni.combine().all()
                        .unis(blobs.get(file(manifest, AdapterManifest.CONFIG_FILE)),
                                blobs.get(file(manifest, AdapterManifest.WEIGHTS_FILE)))
                        .asTuple())
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .map(files -> base.withAdapter(LoraAdapter.parse(files.getItem1(), files.getItem2())));
    }

    private AdapterManifest manifest(byte[] bytes) {
        AdapterManifest manifest;
        try {
            manifest = json.readValue(bytes, AdapterManifest.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("the adapter manifest is not readable JSON: " + e.getMessage(), e);
        }
        if (!AdapterManifest.PEFT_LORA.equals(manifest.format())) {
            throw new IllegalArgumentException("the adapter manifest has format " + manifest.format() + ", not "
                    + AdapterManifest.PEFT_LORA);
        }
        return manifest;
    }

    private static BlobReference file(AdapterManifest manifest, String name) {
        Map<String, BlobReference> files = manifest.files() == null ? Map.of() : manifest.files();
        BlobReference reference = files.get(name);
        if (reference == null || reference.uri() == null) {
            throw new IllegalArgumentException("the adapter manifest names no " + name);
        }
        return reference;
    }
}
