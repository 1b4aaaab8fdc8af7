package hotpath.store;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The broker's put path: hands the message to the store and records how long the store took.
 *
 * <p>Old: attaches a capturing lambda ({@code this}, {@code beginTime}, {@code msg}) with
 * {@code thenAccept} to every put's future. Optimized: a future that is already complete (the
 * common case) is recorded inline, with no lambda and no dependent future; only a put still in
 * flight gets the callback. Both keep every statistic. Neither records an exceptionally
 * completed put (thenAccept does not run for one) — the same, tested behaviour.
 */
public final class PutMessagePath {

    /** A store's answer. */
    public record PutResult(boolean ok) {
    }

    private final Function<String, CompletableFuture<PutResult>> store;
    private final LongSupplier clock;
    private final PutMessageStats stats = new PutMessageStats();
    private final boolean optimized;

    public PutMessagePath(Function<String, CompletableFuture<PutResult>> store, LongSupplier clock,
                          boolean optimized) {
        this.store = store;
        this.clock = clock;
        this.optimized = optimized;
    }

    public PutMessageStats stats() {
        return stats;
    }

    public CompletableFuture<PutResult> putMessage(String msg) {
        long beginTime = clock.getAsLong();
        CompletableFuture<PutResult> future = store.apply(msg);
        if (!optimized) {
            future.thenAccept(result -> record(result, beginTime, msg));
        } else if (future.isDone()) {
            if (!future.isCompletedExceptionally()) {
                record(future.join(), beginTime, msg);
            }
        } else {
            future.thenAccept(result -> record(result, beginTime, msg));
        }
        return future;
    }

    private void record(PutResult result, long beginTime, String msg) {
        long elapsed = clock.getAsLong() - beginTime;
        stats.record(elapsed, result.ok());
    }
}
