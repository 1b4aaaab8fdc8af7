package hotpath.profiler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import one.profiler.AsyncProfiler;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.IterationType;

/**
 * Where the heap bytes of an operation are allocated: during one warmup iteration, the last by
 * default, after the JIT's own warmup,
 * async-profiler's {@code alloc} event, at its smallest interval, records every heap allocation
 * with its stack (after escape analysis, as {@code -prof gc} counts them). Each stack's
 * allocations and bytes are written with the iteration's operation count to a file of the fork's
 * own in {@code dir}; hotpath's analysis names the sites and divides by the operations.
 * Warmup, so that no measured figure of the fork is touched: the measurement iterations stay
 * for {@link NativeAllocProfiler} in the same fork, and JMH aggregates no warmup results.
 *
 * <p>Recording every allocation slows allocating code ~80x: it runs in forks of its own, never
 * timed.
 *
 * <p>How to use: {@code java -jar target/benchmarks.jar <regex> -wi 4
 * -prof "hotpath.profiler.AllocSiteProfiler:dir=sites"} (warmup=N: record warmup iteration N
 * rather than the last; recording starts in the iteration before it)
 */
public final class AllocSiteProfiler implements InternalProfiler {

    /** The file format's first line; the analysis refuses files without it. */
    static final String HEADER = "# hotpath allocation sites 1";

    private final AsyncProfiler profiler;
    private final Path dir;
    /** The warmup iteration recorded, 1-based (0: the last). */
    private final int warmup;
    private int warmups;
    private String benchmark;
    private boolean running;
    /** The recording's stacks when the recorded iteration began. */
    private Map<String, long[]> start;

    public AllocSiteProfiler(String initLine) throws ProfilerException {
        Map<String, String> options = options(initLine);
        String folder = options.remove("dir");
        if (folder == null || folder.isBlank()) {
            throw new ProfilerException("AllocSiteProfiler needs dir=<folder> for its files");
        }
        String at = options.remove("warmup");
        try {
            warmup = at == null ? 0 : Integer.parseInt(at);
        } catch (NumberFormatException e) {
            throw new ProfilerException("AllocSiteProfiler: warmup=" + at + " is not a number");
        }
        if (!options.isEmpty()) {
            throw new ProfilerException("AllocSiteProfiler: unknown options " + options.keySet()
                    + "; known: dir, warmup");
        }
        dir = Path.of(folder);
        profiler = NativeAllocProfiler.load();
    }

    static Map<String, String> options(String initLine) {
        Map<String, String> options = new TreeMap<>();
        for (String option : initLine == null ? new String[0] : initLine.split(";")) {
            if (option.isBlank()) {
                continue;
            }
            int eq = option.indexOf('=');
            options.put(eq < 0 ? option.trim() : option.substring(0, eq).trim(),
                    eq < 0 ? "" : option.substring(eq + 1).trim());
        }
        return options;
    }

    @Override
    public String getDescription() {
        return "Heap allocation sites of one warmup iteration after the JIT's (async-profiler alloc, every allocation)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (iterationParams.getType() != IterationType.WARMUP) {
            return;
        }
        // Without forks (-f 0) one instance may see several benchmarks: count each one's own.
        String key = fileName(benchmarkParams);
        if (!key.equals(benchmark)) {
            benchmark = key;
            warmups = 0;
        }
        warmups++;
        int recorded = warmup > 0 ? warmup : iterationParams.getCount();
        if (recorded < 2) {
            throw new IllegalStateException("AllocSiteProfiler records warmup iteration " + recorded
                    + " and needs a warmup iteration before it: run with -wi 2 or more");
        }
        try {
            // Recording starts one iteration early: a thread's heap sampling takes effect from its
            // next TLAB, so the first megabytes after a start go unseen (9-20% of an iteration's
            // operations on KnownAllocationSitesBenchmark, a System.gc() after the start
            // included). The recorded iteration is the difference of two dumps of one recording.
            if (warmups == recorded - 1) {
                profiler.execute("start,event=alloc,alloc=1");
                running = true;
            } else if (warmups == recorded && running) {
                start = dump();
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot start async-profiler alloc: " + e.getMessage(), e);
        }
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        if (start == null) {
            return List.of();
        }
        Map<String, long[]> stacks;
        try {
            stacks = dump();
            profiler.execute("stop");
        } catch (Exception e) {
            throw new IllegalStateException("cannot read async-profiler alloc: " + e.getMessage(), e);
        } finally {
            running = false;
        }
        for (Map.Entry<String, long[]> e : start.entrySet()) {
            long[] v = stacks.get(e.getKey());
            v[0] -= e.getValue()[0];
            v[1] -= e.getValue()[1];
        }
        start = null;
        long ops = result.getMetadata().getAllOps();
        StringBuilder out = new StringBuilder(HEADER).append('\n')
                .append("benchmark\t").append(benchmarkParams.getBenchmark()).append('\n');
        for (String key : benchmarkParams.getParamsKeys()) {
            out.append("param\t").append(key).append('\t').append(benchmarkParams.getParam(key)).append('\n');
        }
        out.append("ops\t").append(ops).append('\n')
                .append("jvm\t").append(System.getProperty("java.vm.version")).append('\n')
                .append("stacks\tallocations\tbytes\tframes (root first; the last is the allocated type)\n");
        for (Map.Entry<String, long[]> e : stacks.entrySet()) {
            long[] v = e.getValue();
            if (v[0] == 0 && v[1] == 0) {
                continue;
            }
            out.append(v[0]).append('\t').append(v[1]).append('\t').append(e.getKey()).append('\n');
        }
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(fileName(benchmarkParams)), out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write allocation sites to " + dir + ": " + e.getMessage(), e);
        }
        return List.of();
    }

    /** Every stack recorded so far: its allocations and bytes. */
    private Map<String, long[]> dump() throws IOException {
        Map<String, long[]> stacks = new TreeMap<>();
        merge(stacks, profiler.execute("collapsed"), 0);
        merge(stacks, profiler.execute("collapsed,total"), 1);
        return stacks;
    }

    /** One file per fork: the benchmark and its parameters, and the fork's process id. */
    static String fileName(BenchmarkParams params) {
        StringBuilder id = new StringBuilder(params.getBenchmark());
        for (String key : params.getParamsKeys()) {
            id.append(',').append(key).append('=').append(params.getParam(key));
        }
        return Integer.toHexString(id.toString().hashCode()) + "-" + ProcessHandle.current().pid() + ".sites";
    }

    /** Adds collapsed lines {@code frame;...;frame value} into column {@code at} of their stack. */
    static void merge(Map<String, long[]> stacks, String collapsed, int at) {
        NativeAllocations.eachStack(collapsed, (stack, value) ->
                stacks.computeIfAbsent(stack, k -> new long[2])[at] += value);
    }
}
