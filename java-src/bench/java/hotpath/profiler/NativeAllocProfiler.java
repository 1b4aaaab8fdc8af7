package hotpath.profiler;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import one.profiler.AsyncProfiler;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.IterationType;

/**
 * Native memory allocated per operation, which {@code -prof gc} cannot see: direct ByteBuffers,
 * zlib state, other mallocs made by the benchmark's code. During each measurement iteration
 * async-profiler's {@code nativemem} event records every malloc with its stack; afterwards the
 * bytes are attributed and divided by the iteration's operation count, as GCProfiler does for
 * {@code gc.alloc.rate.norm}. Secondary metrics: {@code native.alloc.norm} and its
 * {@code .direct}, {@code .zlib} and {@code .other} parts, in B/op.
 *
 * <p>How to use: {@code java -jar target/benchmarks.jar <regex> -prof hotpath.profiler.NativeAllocProfiler}
 */
public final class NativeAllocProfiler implements InternalProfiler {

    private final AsyncProfiler profiler;
    private boolean running;

    public NativeAllocProfiler() throws ProfilerException {
        profiler = load();
    }

    /** async-profiler's bundled library, or why it cannot load on this platform, in one line. */
    static AsyncProfiler load() throws ProfilerException {
        try {
            return AsyncProfiler.getInstance();
        } catch (Throwable t) {
            throw new ProfilerException("async-profiler cannot load on " + System.getProperty("os.name") + "/"
                    + System.getProperty("os.arch") + ": " + t.getMessage());
        }
    }

    @Override
    public String getDescription() {
        return "Native bytes allocated per op (async-profiler nativemem), split into direct, zlib and other";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (iterationParams.getType() != IterationType.MEASUREMENT) {
            return;
        }
        try {
            profiler.execute("start,event=nativemem,nativemem=0");
            running = true;
        } catch (Exception e) {
            throw new IllegalStateException("cannot start async-profiler nativemem: " + e.getMessage(), e);
        }
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        if (!running) {
            return List.of();
        }
        NativeAllocations allocations;
        try {
            profiler.execute("stop");
            allocations = NativeAllocations.parse(profiler.execute("collapsed,total"));
        } catch (Exception e) {
            throw new IllegalStateException("cannot read async-profiler nativemem: " + e.getMessage(), e);
        } finally {
            running = false;
        }
        long ops = result.getMetadata().getAllOps();
        List<Result> out = new ArrayList<>();
        out.add(norm("native.alloc.norm", allocations.total(), ops));
        out.add(norm("native.alloc.norm.direct", allocations.direct(), ops));
        out.add(norm("native.alloc.norm.zlib", allocations.zlib(), ops));
        out.add(norm("native.alloc.norm.other", allocations.other(), ops));
        return out;
    }

    private static ScalarResult norm(String name, long bytes, long ops) {
        return new ScalarResult(name, ops == 0 ? Double.NaN : (double) bytes / ops, "B/op", AggregationPolicy.AVG);
    }
}
