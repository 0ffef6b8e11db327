package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Map;

/**
 * The files of one LoRA checkpoint, stored as a blob of its own: {@link CheckpointSaved#artifactUri()} points at
 * this manifest, and each file name ({@code adapter_config.json}, {@code adapter_model.safetensors}) maps to the
 * blob holding its bytes, so a checkpoint stays content-addressed like every other blob.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record AdapterManifest(String format, Map<String, BlobReference> files) {

    public static final String PEFT_LORA = "peft-lora";
    public static final String CONFIG_FILE = "adapter_config.json";
    public static final String WEIGHTS_FILE = "adapter_model.safetensors";
}
