package org.llmplatform.llama.train;

/**
 * What a teacher-forced forward pass over one sequence keeps for the backward pass: per layer and position
 * the normalised inputs, LoRA bottlenecks (A·x), rotated queries and keys, values, attention probabilities and
 * FFN activations; then the logits of every position.
 */
public final class SequenceActivations {

    final int length;
    /** Per layer, position: the residual stream entering the layer. */
    final double[][][] layerInput;
    final double[][] attentionInverseRms;
    final double[][][] attentionNormed;
    /** Per layer, projection (target ordinal), position: A·x of that projection's input. */
    final double[][][][] bottleneck;
    final double[][][] queries;
    final double[][][] keys;
    final double[][][] values;
    /** Per layer, position t: heads × (t + 1) attention probabilities. */
    final double[][][] attention;
    final double[][][] attentionOutput;
    final double[][][] afterAttention;
    final double[][] ffnInverseRms;
    final double[][][] ffnNormed;
    final double[][][] gate;
    final double[][][] up;
    final double[][][] gated;
    final double[][] finalInput;
    final double[] finalInverseRms;
    final double[][] finalNormed;
    final double[][] logits;

    SequenceActivations(int layers, int length) {
        this.length = length;
        layerInput = new double[layers][length][];
        attentionInverseRms = new double[layers][length];
        attentionNormed = new double[layers][length][];
        bottleneck = new double[layers][LoraParameters.TARGETS.length][length][];
        queries = new double[layers][length][];
        keys = new double[layers][length][];
        values = new double[layers][length][];
        attention = new double[layers][length][];
        attentionOutput = new double[layers][length][];
        afterAttention = new double[layers][length][];
        ffnInverseRms = new double[layers][length];
        ffnNormed = new double[layers][length][];
        gate = new double[layers][length][];
        up = new double[layers][length][];
        gated = new double[layers][length][];
        finalInput = new double[length][];
        finalInverseRms = new double[length];
        finalNormed = new double[length][];
        logits = new double[length][];
    }

    public int length() {
        return length;
    }

    /** The logits after position {@code position} (predicting the token at position + 1); the live array. */
    public double[] logits(int position) {
        return logits[position];
    }
}
