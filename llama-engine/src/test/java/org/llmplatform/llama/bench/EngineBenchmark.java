package org.llmplatform.llama.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.llmplatform.llama.Generation;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.llama.SamplingParams;

/**
 * Engine throughput on a llama2.c checkpoint: greedy, 256 tokens, one stream and 8 concurrent streams
 * (on as many threads as the machine has cores). Run by {@code llama-engine/bench/engine.sh}.
 */
public final class EngineBenchmark {

    private static final int TOKENS = 256;
    private static final int ROUNDS = 5;

    private EngineBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path models = Path.of(args.length > 0 ? args[0] : "models");
        LlamaEngine engine = LlamaEngine.load(models.resolve("stories260K.bin"), models.resolve("tok512.bin"));
        int[] prompt = engine.tokenizer().encode("Once upon a time", true);
        SamplingParams greedy = SamplingParams.builder().temperature(0f).maxTokens(TOKENS).ignoreEos(true).build();
        for (int i = 0; i < 20; i++) {
            stream(engine, prompt, greedy);
        }
        double single = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long start = System.nanoTime();
            int tokens = stream(engine, prompt, greedy);
            single = Math.max(single, tokens / ((System.nanoTime() - start) / 1e9));
        }
        int cores = Runtime.getRuntime().availableProcessors();
        ExecutorService pool = Executors.newFixedThreadPool(cores);
        double concurrent = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long start = System.nanoTime();
            List<Future<Integer>> streams = new ArrayList<>();
            for (int s = 0; s < 8; s++) {
                streams.add(pool.submit(() -> stream(engine, prompt, greedy)));
            }
            int tokens = 0;
            for (Future<Integer> stream : streams) {
                tokens += stream.get();
            }
            concurrent = Math.max(concurrent, tokens / ((System.nanoTime() - start) / 1e9));
        }
        pool.shutdown();
        System.out.printf("engine stories260K, greedy, %d tokens per stream, %d cores%n", TOKENS, cores);
        System.out.printf("  1 stream : %,.0f tokens/s (target 2,000: ratio %.2f)%n", single, single / 2000);
        System.out.printf("  8 streams: %,.0f tokens/s in total (%.2f x one stream)%n", concurrent, concurrent / single);
    }

    private static int stream(LlamaEngine engine, int[] prompt, SamplingParams params) {
        Generation generation = engine.generate(prompt, params, new Random(0));
        while (!generation.finished()) {
            generation.next();
        }
        return generation.completionTokens();
    }
}
