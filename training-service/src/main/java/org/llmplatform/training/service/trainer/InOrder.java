package org.llmplatform.training.service.trainer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Runs a row's or batch's sequences side by side and hands their results back in task order, so sums stay deterministic. */
final class InOrder {

    private InOrder() {
    }

    static <T> List<T> run(ExecutorService pool, List<Callable<T>> tasks) {
        List<T> results = new ArrayList<>();
        try {
            for (Future<T> future : pool.invokeAll(tasks)) {
                results.add(future.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while training", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
        return results;
    }
}
