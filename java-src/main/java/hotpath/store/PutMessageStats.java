package hotpath.store;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The put path's statistics: latency buckets, the maximum, failures and slow-put warnings
 * (over 500 ms). The optimized put path must keep all of them.
 */
public final class PutMessageStats {

    /** Upper bounds (exclusive) in ms: <=0, <10, <50, <100, <200, <500 ms, <1..<5 s, <10 s, >=10 s. */
    static final long[] BOUNDS = {1, 10, 50, 100, 200, 500, 1000, 2000, 3000, 4000, 5000, 10_000};
    public static final long SLOW_PUT_MS = 500;

    private final AtomicLongArray buckets = new AtomicLongArray(BOUNDS.length + 1);
    private final AtomicLong max = new AtomicLong();
    private final LongAdder failures = new LongAdder();
    private final LongAdder slowPutWarnings = new LongAdder();

    void record(long elapsedMs, boolean ok) {
        if (elapsedMs > SLOW_PUT_MS) {
            slowPutWarnings.increment(); // stands for the warning log line
        }
        int bucket = 0;
        while (bucket < BOUNDS.length && elapsedMs >= BOUNDS[bucket]) {
            bucket++;
        }
        buckets.incrementAndGet(bucket);
        max.accumulateAndGet(elapsedMs, Math::max);
        if (!ok) {
            failures.increment();
        }
    }

    public long[] buckets() {
        long[] out = new long[buckets.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = buckets.get(i);
        }
        return out;
    }

    public long max() {
        return max.get();
    }

    public long failures() {
        return failures.sum();
    }

    public long slowPutWarnings() {
        return slowPutWarnings.sum();
    }
}
