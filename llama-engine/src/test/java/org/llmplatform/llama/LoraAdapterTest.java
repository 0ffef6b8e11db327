package org.llmplatform.llama;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.lora.LoraTarget;

class LoraAdapterTest {

    private static final int[] TOKENS = {1, 403, 407, 261, 378, 429, 60, 30};

    private static float[][] logits(LlamaModel model) {
        InferenceSession session = model.newSession();
        float[][] out = new float[TOKENS.length][];
        for (int pos = 0; pos < TOKENS.length; pos++) {
            out[pos] = session.forward(TOKENS[pos], pos).clone();
        }
        return out;
    }

    private static LoraAdapter perturbed(LlamaConfig config, long seed) {
        LoraAdapter identity = LoraAdapter.identity(config, 8, 16, seed);
        Random random = new Random(seed);
        float[][] a = new float[config.layers() * 7][];
        float[][] b = new float[a.length][];
        for (int layer = 0; layer < config.layers(); layer++) {
            for (LoraTarget target : LoraTarget.values()) {
                int i = layer * 7 + target.ordinal();
                a[i] = identity.a(layer, target);
                b[i] = identity.b(layer, target);
                for (int j = 0; j < b[i].length; j++) {
                    b[i][j] = (float) (random.nextGaussian() * 0.05);
                }
            }
        }
        return LoraAdapter.of(config, 8, 16, a, b);
    }

    @Test
    void theIdentityAdapterGivesExactlyTheBaseModelsLogits() {
        LlamaModel base = SharedModels.stories260K().model();
        LoraAdapter identity = LoraAdapter.identity(base.config(), 8, 16, 3407);
        float[][] expected = logits(base);
        float[][] actual = logits(base.withAdapter(identity));
        for (int pos = 0; pos < TOKENS.length; pos++) {
            assertArrayEquals(expected[pos], actual[pos], 0f, "position " + pos);
        }
    }

    @Test
    void aTrainedAdapterChangesTheLogitsAndLeavesTheBaseModelUntouched() {
        LlamaModel base = SharedModels.stories260K().model();
        float[][] before = logits(base);
        float[][] adapted = logits(base.withAdapter(perturbed(base.config(), 7)));
        assertFalse(Arrays.equals(before[TOKENS.length - 1], adapted[TOKENS.length - 1]));
        float[][] after = logits(base);
        for (int pos = 0; pos < TOKENS.length; pos++) {
            assertArrayEquals(before[pos], after[pos], 0f);
        }
    }

    @Test
    void theFilesRoundTripToTheSameBytesAndTheSameLogits() {
        LlamaModel base = SharedModels.stories260K().model();
        LoraAdapter adapter = perturbed(base.config(), 11);
        LoraAdapter parsed = LoraAdapter.parse(adapter.adapterConfigJson(), adapter.safetensors());
        assertArrayEquals(adapter.safetensors(), parsed.safetensors());
        assertArrayEquals(adapter.adapterConfigJson(), parsed.adapterConfigJson());
        assertEquals(8, parsed.rank());
        assertEquals(16.0, parsed.alpha());
        float[][] direct = logits(base.withAdapter(adapter));
        float[][] reloaded = logits(base.withAdapter(parsed));
        assertArrayEquals(direct[TOKENS.length - 1], reloaded[TOKENS.length - 1], 0f);
    }

    @Test
    void theSameSeedGivesTheSameBytesAndAnotherSeedOthers() {
        LlamaConfig config = SharedModels.stories260K().config();
        assertArrayEquals(LoraAdapter.identity(config, 8, 16, 1).safetensors(),
                LoraAdapter.identity(config, 8, 16, 1).safetensors());
        assertFalse(Arrays.equals(LoraAdapter.identity(config, 8, 16, 1).safetensors(),
                LoraAdapter.identity(config, 8, 16, 2).safetensors()));
    }

    @Test
    void theSafetensorsFileHasALittleEndianHeaderLengthAndPeftNames() {
        LlamaConfig config = SharedModels.stories260K().config();
        byte[] file = LoraAdapter.identity(config, 4, 8, 1).safetensors();
        long headerLength = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getLong();
        assertEquals(0, (8 + headerLength) % 8);
        String header = new String(file, 8, (int) headerLength, StandardCharsets.UTF_8);
        assertTrue(header.contains("\"base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight\":{\"dtype\":\"F32\","
                + "\"shape\":[4,64]"), header);
        assertTrue(header.contains("\"base_model.model.model.layers.4.mlp.down_proj.lora_B.weight\":{\"dtype\":\"F32\","
                + "\"shape\":[64,4]"), header);
        int tensorFloats = config.layers() * 4 * (
                /* A */ 64 * 6 + 172 + /* B */ 64 * 2 + 32 * 2 + 172 * 2 + 64);
        assertEquals(8 + headerLength + 4L * tensorFloats, file.length);
        String json = new String(LoraAdapter.identity(config, 4, 8, 1).adapterConfigJson(), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"peft_type\": \"LORA\""), json);
        assertTrue(json.contains("\"r\": 4"), json);
        assertTrue(json.contains("\"lora_alpha\": 8"), json);
        assertTrue(json.contains("\"target_modules\": [\"down_proj\", \"gate_proj\", \"k_proj\", \"o_proj\", \"q_proj\", "
                + "\"up_proj\", \"v_proj\"]"), json);
    }

    @Test
    void malformedSafetensorsAreRefusedWithAClearMessage() {
        LoraAdapter adapter = LoraAdapter.identity(SharedModels.stories260K().config(), 8, 16, 1);
        byte[] config = adapter.adapterConfigJson();
        byte[] good = adapter.safetensors();
        assertRefused(config, new byte[3], "shorter than the 8-byte header length");
        assertRefused(config, Arrays.copyOf(good, good.length - 4), "data offsets outside");
        byte[] hugeHeader = good.clone();
        ByteBuffer.wrap(hugeHeader).order(ByteOrder.LITTLE_ENDIAN).putLong(0, Long.MAX_VALUE);
        assertRefused(config, hugeHeader, "header length");
        byte[] garbage = good.clone();
        garbage[8] = '#';
        assertRefused(config, garbage, "not valid JSON");
        assertRefused(config, safetensors("{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 4),
                "unexpected tensor x");
        String a = "base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight";
        String b = "base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight";
        assertRefused(config, safetensors("{\"" + a + "\":{\"dtype\":\"I64\",\"shape\":[1],\"data_offsets\":[0,8]}}", 8),
                "dtype I64");
        assertRefused(config, safetensors("{\"" + a + "\":{\"dtype\":\"F32\",\"shape\":[8,2],\"data_offsets\":[0,64]}}", 64),
                "only one of lora_A and lora_B");
        assertRefused(config, safetensors("{\"" + a + "\":{\"dtype\":\"F32\",\"shape\":[8,2],\"data_offsets\":[0,60]}}", 64),
                "60 bytes for 16 elements");
        assertRefused(config, safetensors("{\"" + a + "\":{\"dtype\":\"F32\",\"shape\":[4,2],\"data_offsets\":[0,32]},\""
                + b + "\":{\"dtype\":\"F32\",\"shape\":[2,4],\"data_offsets\":[32,64]}}", 64), "r = 8");
        assertRefused(config, safetensors("{\"" + a + "\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}", 4),
                "not a small non-negative integer");
        assertRefused(config, safetensors("{}", 0), "holds no LoRA tensors");
    }

    @Test
    void aMalformedAdapterConfigIsRefusedWithAClearMessage() {
        byte[] good = LoraAdapter.identity(SharedModels.stories260K().config(), 8, 16, 1).safetensors();
        assertRefused("{\"r\": 8, \"lora_alpha\": 16".getBytes(StandardCharsets.UTF_8), good, "adapter_config.json is not valid JSON");
        assertRefused("[]".getBytes(StandardCharsets.UTF_8), good, "not a JSON object");
        assertRefused("{\"lora_alpha\": 16}".getBytes(StandardCharsets.UTF_8), good, "r must be a positive integer");
        assertRefused("{\"r\": 8.5, \"lora_alpha\": 16}".getBytes(StandardCharsets.UTF_8), good, "r must be a positive integer");
        assertRefused("{\"r\": 8, \"lora_alpha\": \"16\"}".getBytes(StandardCharsets.UTF_8), good, "lora_alpha");
        assertRefused("{\"r\": 8, \"lora_alpha\": 16, \"peft_type\": \"IA3\"}".getBytes(StandardCharsets.UTF_8), good,
                "only LORA");
        assertRefused("{\"r\": 8, \"lora_alpha\": 16, \"use_dora\": true}".getBytes(StandardCharsets.UTF_8), good, "use_dora");
        assertRefused("{\"r\": 4, \"lora_alpha\": 16}".getBytes(StandardCharsets.UTF_8), good, "r = 4");
        assertRefused(null, good, "both adapter_config.json and adapter_model.safetensors are required");
    }

    @Test
    void anAdapterForAnotherModelShapeIsRefusedWhenApplied() {
        LlamaModel base = SharedModels.stories260K().model();
        LlamaConfig wider = new LlamaConfig(128, 172, 5, 8, 4, 512, 512, true);
        LoraAdapter foreign = LoraAdapter.identity(wider, 8, 16, 1);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> base.withAdapter(foreign));
        assertTrue(error.getMessage().contains("does not fit"), error.getMessage());
        LlamaConfig deeper = new LlamaConfig(64, 172, 6, 8, 4, 512, 512, true);
        error = assertThrows(IllegalArgumentException.class,
                () -> base.withAdapter(LoraAdapter.identity(deeper, 8, 16, 1)));
        assertTrue(error.getMessage().contains("6 layers"), error.getMessage());
    }

    @Test
    void aGenerationWithTheIdentityAdapterMatchesTheBaseModel() {
        LlamaEngine engine = SharedModels.stories260K();
        LlamaEngine adapted = engine.withAdapter(LoraAdapter.identity(engine.config(), 8, 16, 3407));
        int[] prompt = engine.encodeChat(List.of(new ChatMessage("user", "Once upon a time")));
        SamplingParams params = SamplingParams.builder().temperature(1f).maxTokens(30).build();
        assertEquals(SharedModels.run(engine.generate(prompt, params, new Random(5))),
                SharedModels.run(adapted.generate(prompt, params, new Random(5))));
        assertNotEquals(SharedModels.run(engine.generate(prompt, params, new Random(5))),
                SharedModels.run(engine.withAdapter(perturbed(engine.config(), 3)).generate(prompt, params, new Random(5))));
    }

    private static byte[] safetensors(String header, int dataBytes) {
        byte[] json = header.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + json.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(json.length).put(json).array();
    }

    private static void assertRefused(byte[] config, byte[] weights, String expected) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> LoraAdapter.parse(config, weights));
        assertTrue(error.getMessage().contains(expected), error.getMessage());
    }
}
