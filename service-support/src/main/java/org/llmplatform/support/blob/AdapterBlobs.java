package org.llmplatform.support.blob;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.llmplatform.model.events.AdapterManifest;
import org.llmplatform.model.events.BlobReference;

/**
 * LoRA checkpoints in the blob store, as the training-service writes them and the inference-gateway reads them:
 * the two PEFT files as blobs, and an {@link AdapterManifest} naming them as a third blob whose URI is the
 * checkpoint's artifact URI.
 */
@ApplicationScoped
public class AdapterBlobs {

    /** The bytes of {@code adapter_config.json} and {@code adapter_model.safetensors}. */
    public record AdapterFiles(byte[] config, byte[] weights) {
    }

    private final BlobStore blobs;
    private final ObjectMapper json;

    public AdapterBlobs(BlobStore blobs, ObjectMapper json) {
        this.blobs = blobs;
        this.json = json;
    }

    /** Stores the files and their manifest; the item is the manifest's URI. */
    public Uni<String> store(AdapterFiles files) {
        return blobs.put(files.config()).chain(config -> blobs.put(files.weights()).chain(weights -> {
            Map<String, BlobReference> named = new LinkedHashMap<>();
            named.put(AdapterManifest.CONFIG_FILE, config);
            named.put(AdapterManifest.WEIGHTS_FILE, weights);
            return blobs.put(write(new AdapterManifest(AdapterManifest.PEFT_LORA, named)));
        })).map(BlobReference::uri);
    }

    /** The files a manifest URI names; fails with IllegalArgumentException when it names no PEFT LoRA adapter. */
    public Uni<AdapterFiles> read(String manifestUri) {
        return blobs.get(new BlobReference(manifestUri, null, -1)).chain(bytes -> {
            AdapterManifest manifest = read(bytes, manifestUri);
            BlobReference config = file(manifest, AdapterManifest.CONFIG_FILE, manifestUri);
            BlobReference weights = file(manifest, AdapterManifest.WEIGHTS_FILE, manifestUri);
            return blobs.get(config).chain(configBytes -> blobs.get(weights).map(weightBytes -> new AdapterFiles(configBytes, weightBytes)));
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
        AdapterManifest manifest;
        try {
            manifest = json.readValue(bytes, AdapterManifest.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("checkpoint " + uri + " is not an adapter manifest: " + e.getMessage(), e);
        }
        if (!AdapterManifest.PEFT_LORA.equals(manifest.format())) {
            throw new IllegalArgumentException("checkpoint " + uri + " has format " + manifest.format() + ", not " + AdapterManifest.PEFT_LORA);
        }
        return manifest;
    }

    private static BlobReference file(AdapterManifest manifest, String name, String uri) {
        BlobReference reference = manifest.files() == null ? null : manifest.files().get(name);
        if (reference == null || reference.uri() == null) {
            throw new IllegalArgumentException("checkpoint " + uri + " names no " + name);
        }
        return reference;
    }
}
