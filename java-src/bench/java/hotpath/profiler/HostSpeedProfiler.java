package hotpath.profiler;

import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * How fast the host ran around each iteration: a fixed piece of work whose cost only the host
 * can change (integer arithmetic and a walk through a 64 KB table that stays in the core's own
 * caches), timed just before and just after every iteration, outside its timed loop, as
 * GCProfiler reads its counters. It is built to run slower where other tenants slow the vCPU
 * itself down (contention for the host's shared core: the code's iterations then run 1.7-2.1x
 * slower in steps of seconds, in CPU time as in wall time); the code's own slowdowns (page
 * faults, GC, the JIT) do not touch it. A probe is the fastest of four short rounds of the work,
 * and an iteration's figure the faster of its two probes: an interruption (a GC thread, the JIT's
 * compiler, another thread given the CPU for a slice of milliseconds) lasts less than a round, a
 * slow stretch of the host seconds. So it reads how fast the vCPU runs while it runs, not how
 * much of the CPU the JVM gets (HostSpeedCheck shows both). On a contended day it ran 1.1x slow
 * or more around 17% of an A/A's iterations while the code there kept its level
 * (docs/evidence/does-the-probe-explain-the-noise.md): a trace of the host, not a measure of the
 * code. Secondary metric: {@code host.probe}, in µs.
 *
 * <p>How to use: {@code java -jar target/benchmarks.jar <regex> -prof hotpath.profiler.HostSpeedProfiler}
 */
public final class HostSpeedProfiler implements InternalProfiler {

    /** 16K ints: 64 KB, resident in L2 on every CPU this study has met. */
    private static final int TABLE = 1 << 14;
    /** Steps of the walk and rounds of arithmetic per round: about 0.1 ms. */
    private static final int STEPS = 1 << 15;
    /** Rounds per probe: about half a millisecond together. */
    static final int ROUNDS = 4;
    /** Probes run at start, so that the first iteration's probe is compiled code. */
    private static final int WARMUP = 400;
    /** Whether this JVM ran them: JMH makes a profiler per benchmark, and a run without forks
     * (the smoke profile's) makes some 50 in one JVM, whose probe stays compiled. */
    private static boolean warm;

    private static final int[] NEXT = cycle(TABLE, 0x5eed);
    private static volatile long sink;

    private long before = -1;

    public HostSpeedProfiler() {
        warmUp();
    }

    private static synchronized void warmUp() {
        if (warm) {
            return;
        }
        for (int i = 0; i < WARMUP; i++) {
            probe();
        }
        warm = true;
    }

    @Override
    public String getDescription() {
        return "Host speed: a fixed, cache-resident piece of work timed before and after every iteration";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = probe();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        long after = probe();
        if (before < 0) {
            return List.of();
        }
        return List.of(new ScalarResult("host.probe", figure(before, after), "us", AggregationPolicy.AVG));
    }

    /** An iteration's figure in µs: the faster of the probes around it. */
    static double figure(long before, long after) {
        return Math.min(before, after) / 1e3;
    }

    /** The probe's time in ns: the fastest of its rounds. */
    public static long probe() {
        return fastest(HostSpeedProfiler::round, ROUNDS);
    }

    /**
     * The fastest of {@code rounds} readings: a slice of the CPU given to another thread lengthens
     * the round it falls in and never shortens one, so a probe reads past it while one round ran whole.
     */
    static long fastest(LongSupplier round, int rounds) {
        long fastest = Long.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            fastest = Math.min(fastest, round.getAsLong());
        }
        return fastest;
    }

    /** One round of the work, in ns. */
    static long round() {
        long t0 = System.nanoTime();
        int at = 0;
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < STEPS; i++) {
            at = NEXT[at];
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            x += at;
        }
        sink = x;
        return System.nanoTime() - t0;
    }

    /** A random cyclic permutation of 0..n-1 (Sattolo), so that the walk visits every slot. */
    static int[] cycle(int n, long seed) {
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            next[i] = i;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int t = next[i];
            next[i] = next[j];
            next[j] = t;
        }
        return next;
    }
}
