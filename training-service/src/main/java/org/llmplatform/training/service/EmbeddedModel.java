package org.llmplatform.training.service;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.llama.train.TrainableModel;
import org.llmplatform.training.config.TrainerConfig;
import org.llmplatform.training.service.trainer.GrpoTrainer;
import org.llmplatform.training.service.trainer.SftTrainer;
import org.llmplatform.training.service.trainer.TrainerSettings;

/** The embedded trainer's base model, loaded from the configured files on first use and kept. */
@ApplicationScoped
public class EmbeddedModel {

    private final TrainerConfig config;
    private GrpoTrainer trainer;
    private SftTrainer sftTrainer;
    private LlamaEngine engine;
    private TrainableModel trainable;
    private ExecutorService pool;

    public EmbeddedModel(TrainerConfig config) {
        this.config = config;
    }

    public synchronized GrpoTrainer trainer() {
        if (trainer == null) {
            Path checkpoint = config.checkpoint().orElseThrow(() -> new IllegalStateException(
                    "training.trainer.checkpoint is not configured: the embedded trainer has no base model file"));
            Path tokenizer = config.tokenizer().orElseThrow(() -> new IllegalStateException(
                    "training.trainer.tokenizer is not configured: the embedded trainer has no tokenizer file"));
            try {
                engine = LlamaEngine.load(checkpoint, tokenizer);
                trainable = TrainableModel.of(engine.model());
                int parallelism = config.parallelism().orElse(Runtime.getRuntime().availableProcessors());
                pool = Executors.newFixedThreadPool(Math.max(1, parallelism), task -> {
                    Thread thread = new Thread(task, "embedded-trainer-sequence");
                    thread.setDaemon(true);
                    return thread;
                });
                TrainerSettings settings = new TrainerSettings(config.loraRank(), config.loraAlpha(), config.seed(),
                        config.learningRateMultiplier());
                trainer = new GrpoTrainer(engine, trainable, settings, pool);
                sftTrainer = new SftTrainer(engine, trainable, settings, pool);
            } catch (IOException e) {
                throw new UncheckedIOException("could not load the base model " + config.baseModel() + ": " + e.getMessage(), e);
            }
        }
        return trainer;
    }

    /** The supervised fine-tuning trainer on the same loaded model. */
    public synchronized SftTrainer sftTrainer() {
        trainer();
        return sftTrainer;
    }

    /** The loaded base model (loading it on first use), for trainers that drive it step by step. */
    public synchronized LlamaEngine engine() {
        trainer();
        return engine;
    }

    /** The base model with LoRA forward and backward passes. */
    public synchronized TrainableModel trainableModel() {
        trainer();
        return trainable;
    }

    @PreDestroy
    synchronized void stop() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
