package hotpath.fidelity;

import java.lang.management.ManagementFactory;
import java.util.function.Supplier;

/**
 * Heap bytes one call allocates, from the thread's allocation counter
 * ({@code com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes}) over many calls after
 * a warm-up: what {@code -prof gc} reports as {@code gc.alloc.rate.norm}, without JMH. The
 * warm-up matters: until C2 has compiled the path, escape analysis has not removed what it will
 * remove, and some of the release's paths (the binary marshaller) need ~200,000 calls to settle.
 */
public final class HeapPerCall {

    /** Two figures agree when they differ by at most this share of the larger ... */
    public static final double TOLERANCE = 0.02;
    /** ... or by at most this many bytes (two alignment units). */
    public static final double TOLERANCE_BYTES = 16;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Where results go, so that no call's result is dead code. */
    private static volatile Object sink;

    private HeapPerCall() {
    }

    /** Mean heap bytes per call of {@code call} over {@code calls} calls after {@code warmup}. */
    public static double measure(Supplier<?> call, int warmup, int calls) {
        for (int i = 0; i < warmup; i++) {
            sink = call.get();
        }
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++) {
            sink = call.get();
        }
        long after = THREADS.getCurrentThreadAllocatedBytes();
        return (double) (after - before) / calls;
    }

    /**
     * Heap bytes per call of the release and of the model: both warmed up first, then measured
     * in alternating rounds, keeping each side's smallest round. Code that C2 has not finished
     * optimizing can only allocate more, never less, so the minimum is the settled figure.
     *
     * @return {upstream, model}
     */
    public static double[] compare(Supplier<?> upstream, Supplier<?> model, int warmup, int calls) {
        measure(upstream, warmup, 0);
        measure(model, warmup, 0);
        double u = Double.MAX_VALUE;
        double m = Double.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            u = Math.min(u, measure(upstream, 0, calls));
            m = Math.min(m, measure(model, 0, calls));
        }
        return new double[] {u, m};
    }

    /** Whether two per-call figures agree within 2% or 16 bytes. */
    public static boolean agree(double a, double b) {
        return Math.abs(a - b) <= Math.max(TOLERANCE_BYTES, TOLERANCE * Math.max(Math.abs(a), Math.abs(b)));
    }

    /** "upstream 240 B vs model 152 B per call" */
    public static String describe(String what, double upstream, double model) {
        return String.format("%s: upstream %.1f B vs model %.1f B per call", what, upstream, model);
    }
}
