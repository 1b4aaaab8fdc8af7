package hotpath.notebook;

import java.lang.management.ManagementFactory;

/**
 * Heap bytes one call allocates, from the thread allocation counter: the Java notebooks' one
 * way to show a model's allocation. An illustration beside the JMH report, not a measurement:
 * no forks, no steady-state check, whatever the JIT has done by then.
 */
public final class HeapPerCall {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private HeapPerCall() {
    }

    /** Runs {@code call} {@code calls} times to warm up, then {@code calls} times counted. */
    public static long of(Runnable call, int calls) {
        if (calls <= 0) {
            throw new IllegalArgumentException("calls must be positive, not " + calls);
        }
        for (int i = 0; i < calls; i++) {
            call.run();
        }
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++) {
            call.run();
        }
        return (THREADS.getCurrentThreadAllocatedBytes() - before) / calls;
    }
}
