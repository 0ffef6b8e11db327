package org.llmplatform.llama.lora;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.llmplatform.llama.LlamaConfig;

/**
 * A LoRA adapter on the seven projections of every layer: {@code ΔW = scale·B·A} with A of shape
 * [r, in] and B of shape [out, r], scale = α/r (α/√r for rsLoRA). Immutable; it round-trips through the
 * PEFT files {@code adapter_config.json} and {@code adapter_model.safetensors}. A projection without
 * tensors (a PEFT adapter that targets fewer modules) has no delta.
 */
public final class LoraAdapter {

    public static final String CONFIG_FILE = "adapter_config.json";
    public static final String WEIGHTS_FILE = "adapter_model.safetensors";

    private static final LoraTarget[] TARGETS = LoraTarget.values();
    private static final Pattern TENSOR_NAME = Pattern.compile(
            "base_model\\.model\\.model\\.layers\\.(\\d+)\\.(self_attn|mlp)\\.(\\w+)\\.lora_([AB])\\.weight");

    private final int rank;
    private final double alpha;
    private final boolean rsLora;
    private final int layers;
    private final float[][] a;
    private final float[][] b;

    private LoraAdapter(int rank, double alpha, boolean rsLora, int layers, float[][] a, float[][] b) {
        this.rank = rank;
        this.alpha = alpha;
        this.rsLora = rsLora;
        this.layers = layers;
        this.a = a;
        this.b = b;
    }

    /**
     * The untrained adapter: A drawn from {@code seed} (uniform ±1/√in, PEFT's Kaiming-uniform bound), B = 0,
     * so a model with it applied computes exactly what the base model does.
     */
    public static LoraAdapter identity(LlamaConfig config, int rank, double alpha, long seed) {
        checkRank(rank, alpha, config);
        Random random = new Random(seed);
        float[][] a = new float[config.layers() * TARGETS.length][];
        float[][] b = new float[a.length][];
        for (int layer = 0; layer < config.layers(); layer++) {
            for (LoraTarget target : TARGETS) {
                int in = target.inFeatures(config);
                double bound = 1.0 / Math.sqrt(in);
                float[] matrix = new float[rank * in];
                for (int i = 0; i < matrix.length; i++) {
                    matrix[i] = (float) ((random.nextDouble() * 2 - 1) * bound);
                }
                a[index(layer, target)] = matrix;
                b[index(layer, target)] = new float[target.outFeatures(config) * rank];
            }
        }
        return new LoraAdapter(rank, alpha, false, config.layers(), a, b);
    }

    /**
     * An adapter from row-major matrices indexed {@code [layer * 7 + target.ordinal()]} (A [r, in], B [out, r]),
     * copied, checked against {@code config}.
     */
    public static LoraAdapter of(LlamaConfig config, int rank, double alpha, float[][] a, float[][] b) {
        checkRank(rank, alpha, config);
        int count = config.layers() * TARGETS.length;
        if (a.length != count || b.length != count) {
            throw new IllegalArgumentException("expected " + count + " A and B matrices, got " + a.length + " and "
                    + b.length);
        }
        float[][] aCopy = new float[count][];
        float[][] bCopy = new float[count][];
        for (int layer = 0; layer < config.layers(); layer++) {
            for (LoraTarget target : TARGETS) {
                int i = index(layer, target);
                checkLength(a[i], rank * target.inFeatures(config), target, layer, "A");
                checkLength(b[i], target.outFeatures(config) * rank, target, layer, "B");
                aCopy[i] = a[i].clone();
                bCopy[i] = b[i].clone();
            }
        }
        return new LoraAdapter(rank, alpha, false, config.layers(), aCopy, bCopy);
    }

    /** Reads the two PEFT files; bad bytes or inconsistent shapes throw IllegalArgumentException saying why. */
    public static LoraAdapter parse(byte[] adapterConfigJson, byte[] safetensors) {
        if (adapterConfigJson == null || safetensors == null) {
            throw new IllegalArgumentException("both " + CONFIG_FILE + " and " + WEIGHTS_FILE + " are required");
        }
        AdapterSettings settings = AdapterSettings.parse(adapterConfigJson);
        Map<String, Safetensors.Tensor> tensors = Safetensors.read(safetensors);
        int layers = 0;
        for (String name : tensors.keySet()) {
            layers = Math.max(layers, layerOf(name) + 1);
        }
        if (layers == 0) {
            throw new IllegalArgumentException(WEIGHTS_FILE + " holds no LoRA tensors");
        }
        float[][] a = new float[layers * TARGETS.length][];
        float[][] b = new float[a.length][];
        int[] inFeatures = new int[TARGETS.length];
        int[] outFeatures = new int[TARGETS.length];
        for (int layer = 0; layer < layers; layer++) {
            for (LoraTarget target : TARGETS) {
                Safetensors.Tensor ta = tensors.get(target.tensorName(layer, true));
                Safetensors.Tensor tb = tensors.get(target.tensorName(layer, false));
                if (ta == null && tb == null) {
                    continue;
                }
                if (ta == null || tb == null) {
                    throw new IllegalArgumentException(WEIGHTS_FILE + " has only one of lora_A and lora_B for "
                            + target.tensorName(layer, ta != null));
                }
                if (ta.shape().length != 2 || tb.shape().length != 2 || ta.shape()[0] != settings.rank()
                        || tb.shape()[1] != settings.rank()) {
                    throw new IllegalArgumentException(WEIGHTS_FILE + ": " + target.module() + " of layer " + layer
                            + " has shapes A " + Arrays.toString(ta.shape()) + ", B " + Arrays.toString(tb.shape())
                            + " where [r, in] and [out, r] with r = " + settings.rank() + " are expected");
                }
                int t = target.ordinal();
                if (inFeatures[t] == 0) {
                    inFeatures[t] = ta.shape()[1];
                    outFeatures[t] = tb.shape()[0];
                } else if (inFeatures[t] != ta.shape()[1] || outFeatures[t] != tb.shape()[0]) {
                    throw new IllegalArgumentException(WEIGHTS_FILE + ": " + target.module() + " of layer " + layer
                            + " differs in shape from earlier layers");
                }
                a[index(layer, target)] = ta.data();
                b[index(layer, target)] = tb.data();
            }
        }
        return new LoraAdapter(settings.rank(), settings.alpha(), settings.rsLora(), layers, a, b);
    }

    public int rank() {
        return rank;
    }

    public double alpha() {
        return alpha;
    }

    public int layers() {
        return layers;
    }

    /** The factor applied to B·A: α/r, or α/√r for rsLoRA adapters. */
    public double scale() {
        return rsLora ? alpha / Math.sqrt(rank) : alpha / rank;
    }

    /** A copy of A ([r, in], row-major) of {@code target} in {@code layer}; null when the adapter does not target it. */
    public float[] a(int layer, LoraTarget target) {
        float[] matrix = a[index(layer, target)];
        return matrix == null ? null : matrix.clone();
    }

    /** A copy of B ([out, r], row-major) of {@code target} in {@code layer}; null when the adapter does not target it. */
    public float[] b(int layer, LoraTarget target) {
        float[] matrix = b[index(layer, target)];
        return matrix == null ? null : matrix.clone();
    }

    /**
     * Adds scale·B·A to {@code weights} (the base projection, [out, in] row-major) in place; nothing when the
     * adapter does not target it.
     */
    public void addDelta(int layer, LoraTarget target, float[] weights, int out, int in) {
        float[] ma = a[index(layer, target)];
        float[] mb = b[index(layer, target)];
        if (ma == null) {
            return;
        }
        if (ma.length != rank * in || mb.length != out * rank) {
            throw new IllegalArgumentException("the adapter's " + target.module() + " of layer " + layer
                    + " does not fit a projection of " + out + "x" + in);
        }
        double scale = scale();
        double[] row = new double[in];
        for (int o = 0; o < out; o++) {
            Arrays.fill(row, 0);
            for (int k = 0; k < rank; k++) {
                double bk = mb[o * rank + k];
                if (bk != 0) {
                    for (int i = 0; i < in; i++) {
                        row[i] += bk * ma[k * in + i];
                    }
                }
            }
            for (int i = 0; i < in; i++) {
                weights[o * in + i] += (float) (scale * row[i]);
            }
        }
    }

    /** PEFT's adapter_config.json for this adapter. */
    public byte[] adapterConfigJson() {
        TreeSet<String> modules = new TreeSet<>();
        for (int layer = 0; layer < layers; layer++) {
            for (LoraTarget target : TARGETS) {
                if (a[index(layer, target)] != null) {
                    modules.add(target.module());
                }
            }
        }
        StringBuilder json = new StringBuilder("{\n");
        json.append("  \"alpha_pattern\": {},\n");
        json.append("  \"base_model_name_or_path\": null,\n");
        json.append("  \"bias\": \"none\",\n");
        json.append("  \"fan_in_fan_out\": false,\n");
        json.append("  \"inference_mode\": true,\n");
        json.append("  \"init_lora_weights\": true,\n");
        json.append("  \"lora_alpha\": ").append(number(alpha)).append(",\n");
        json.append("  \"lora_dropout\": 0.0,\n");
        json.append("  \"modules_to_save\": null,\n");
        json.append("  \"peft_type\": \"LORA\",\n");
        json.append("  \"r\": ").append(rank).append(",\n");
        json.append("  \"rank_pattern\": {},\n");
        json.append("  \"target_modules\": [");
        json.append(String.join(", ", modules.stream().map(Json::quote).toList())).append("],\n");
        json.append("  \"task_type\": \"CAUSAL_LM\",\n");
        json.append("  \"use_dora\": false,\n");
        json.append("  \"use_rslora\": ").append(rsLora).append('\n');
        return json.append("}\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** adapter_model.safetensors: F32 tensors, names sorted, so equal adapters give equal bytes. */
    public byte[] safetensors() {
        Map<String, Safetensors.Tensor> tensors = new LinkedHashMap<>();
        for (int layer = 0; layer < layers; layer++) {
            for (LoraTarget target : TARGETS) {
                float[] ma = a[index(layer, target)];
                if (ma == null) {
                    continue;
                }
                float[] mb = b[index(layer, target)];
                tensors.put(target.tensorName(layer, true), new Safetensors.Tensor(new int[] {rank, ma.length / rank}, ma));
                tensors.put(target.tensorName(layer, false), new Safetensors.Tensor(new int[] {mb.length / rank, rank}, mb));
            }
        }
        return Safetensors.write(tensors);
    }

    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }

    private static int index(int layer, LoraTarget target) {
        return layer * TARGETS.length + target.ordinal();
    }

    private static int layerOf(String name) {
        Matcher matcher = TENSOR_NAME.matcher(name);
        if (!matcher.matches() || matcher.group(1).length() > 4) {
            throw new IllegalArgumentException(WEIGHTS_FILE + " holds an unexpected tensor " + name);
        }
        int layer = Integer.parseInt(matcher.group(1));
        boolean isA = matcher.group(4).equals("A");
        for (LoraTarget target : TARGETS) {
            if (target.tensorName(layer, isA).equals(name)) {
                return layer;
            }
        }
        throw new IllegalArgumentException(WEIGHTS_FILE + " holds a tensor of an unknown module: " + name);
    }

    private static void checkRank(int rank, double alpha, LlamaConfig config) {
        if (rank <= 0 || rank > config.dim()) {
            throw new IllegalArgumentException("LoRA rank " + rank + " must be between 1 and the model dim " + config.dim());
        }
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("LoRA alpha must be a positive number, got " + alpha);
        }
    }

    private static void checkLength(float[] matrix, int expected, LoraTarget target, int layer, String which) {
        if (matrix == null || matrix.length != expected) {
            throw new IllegalArgumentException(which + " of " + target.module() + " in layer " + layer + " must hold "
                    + expected + " values");
        }
    }

    /** The fields of adapter_config.json this engine honours, checked. */
    private record AdapterSettings(int rank, double alpha, boolean rsLora) {

        static AdapterSettings parse(byte[] bytes) {
            JsonNode config = Json.parse(bytes, CONFIG_FILE);
            if (!config.isObject()) {
                throw invalid("it is not a JSON object");
            }
            JsonNode peftType = config.get("peft_type");
            if (peftType != null && !peftType.isNull() && !"LORA".equals(peftType.asText())) {
                throw invalid("peft_type is " + peftType.asText() + ", only LORA is supported");
            }
            BigDecimal r = Json.number(config.get("r"));
            if (r == null || r.stripTrailingZeros().scale() > 0 || r.signum() <= 0 || r.compareTo(BigDecimal.valueOf(4096)) > 0) {
                throw invalid("r must be a positive integer, got " + config.get("r"));
            }
            BigDecimal alpha = Json.number(config.get("lora_alpha"));
            if (alpha == null || alpha.signum() <= 0) {
                throw invalid("lora_alpha must be a positive number, got " + config.get("lora_alpha"));
            }
            for (String unsupported : List.of("use_dora", "fan_in_fan_out")) {
                if (config.path(unsupported).booleanValue()) {
                    throw invalid(unsupported + " adapters are not supported");
                }
            }
            for (String pattern : List.of("rank_pattern", "alpha_pattern")) {
                if (config.path(pattern).isObject() && !config.path(pattern).isEmpty()) {
                    throw invalid(pattern + " is not supported");
                }
            }
            return new AdapterSettings(r.intValue(), alpha.doubleValue(), config.path("use_rslora").booleanValue());
        }

        private static IllegalArgumentException invalid(String why) {
            return new IllegalArgumentException(CONFIG_FILE + " is invalid: " + why);
        }
    }
}
