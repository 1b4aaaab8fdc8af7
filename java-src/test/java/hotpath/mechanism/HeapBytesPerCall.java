package hotpath.mechanism;

import java.lang.management.ManagementFactory;
import java.util.concurrent.Callable;

/**
 * Heap bytes one call allocates once warm, from the thread's allocation counter
 * ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}), as {@code Floors} measures a
 * benchmark method: warm-up calls, then rounds of calls, the least round's figure once two rounds
 * in a row have not lowered it (code C2 has not finished can only allocate more, never less).
 */
public final class HeapBytesPerCall {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final int MAX_ROUNDS = 8;
    private static final int SETTLED_ROUNDS = 2;

    // Results are kept here so that no allocation is optimized away as unused.
    private static volatile Object sink;

    private HeapBytesPerCall() {
    }

    public static double of(Callable<?> call, int warmupCalls, int callsPerRound) {
        try {
            for (int i = 0; i < warmupCalls; i++) {
                sink = call.call();
            }
            long thread = Thread.currentThread().getId();
            double least = Double.MAX_VALUE;
            for (int round = 0, unchanged = 0; round < MAX_ROUNDS && unchanged < SETTLED_ROUNDS; round++) {
                long before = THREADS.getThreadAllocatedBytes(thread);
                for (int i = 0; i < callsPerRound; i++) {
                    sink = call.call();
                }
                double perCall = (THREADS.getThreadAllocatedBytes(thread) - before) / (double) callsPerRound;
                unchanged = perCall < least - 0.5 ? 0 : unchanged + 1;
                least = Math.min(least, perCall);
            }
            return least;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A byte[n]'s heap size: a 16-byte header and the elements, rounded up to 8. */
    public static long byteArray(long n) {
        return (16 + n + 7) / 8 * 8;
    }
}
