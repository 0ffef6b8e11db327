package org.llmplatform.llama.lora;

import org.llmplatform.llama.LlamaConfig;

/**
 * The seven projections of a llama layer that carry a LoRA delta, with their PEFT module names
 * (gate = W1, down = W2, up = W3 in llama2.c terms).
 */
public enum LoraTarget {
    Q("self_attn", "q_proj"),
    K("self_attn", "k_proj"),
    V("self_attn", "v_proj"),
    O("self_attn", "o_proj"),
    GATE("mlp", "gate_proj"),
    DOWN("mlp", "down_proj"),
    UP("mlp", "up_proj");

    private final String block;
    private final String module;

    LoraTarget(String block, String module) {
        this.block = block;
        this.module = module;
    }

    public String module() {
        return module;
    }

    /** The PEFT tensor name of this projection's A or B matrix in {@code layer}. */
    public String tensorName(int layer, boolean a) {
        return "base_model.model.model.layers." + layer + "." + block + "." + module + ".lora_" + (a ? "A" : "B")
                + ".weight";
    }

    public int inFeatures(LlamaConfig c) {
        return this == DOWN ? c.hiddenDim() : c.dim();
    }

    public int outFeatures(LlamaConfig c) {
        return switch (this) {
            case Q, O, DOWN -> c.dim();
            case K, V -> c.kvDim();
            case GATE, UP -> c.hiddenDim();
        };
    }
}
