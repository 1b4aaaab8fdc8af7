package hotpath.profiler;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import javax.management.ObjectName;

import one.profiler.AsyncProfiler;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.IterationType;

/**
 * Where the heap bytes of an operation are allocated: during the last warmup iterations (two by
 * default), after the JIT's own warmup, async-profiler's {@code alloc} event, at its smallest
 * interval, records every heap allocation with its stack (after escape analysis, as
 * {@code -prof gc} counts them). Each recorded iteration's stacks, with their allocations and
 * bytes, are written with the iteration's operation count to a file of the fork's own in
 * {@code dir}; hotpath's analysis takes the iteration whose code allocated least per operation
 * and names the sites.
 * Warmup, so that no measured figure of the fork is touched: the measurement iterations stay
 * for {@link NativeAllocProfiler} in the same fork, and JMH aggregates no warmup results.
 *
 * <p>Why more than one iteration, and a wait before each: on a loaded machine the JIT falls
 * behind, and an iteration recorded before C2 has compiled the code sees the objects its escape
 * analysis would have removed (encoder's old STR_1K, 6,720 B/op beside a busy loop against its
 * settled 6,648). Before each recorded iteration the profiler waits until the compiler has been
 * idle for {@link #IDLE_MS} ms (at most {@link #MAX_WAIT_MS} ms) and notes whether C2's code of
 * the benchmark is in use ({@link #compiledByC2}); code the JIT has not finished can only
 * allocate more, never less: the least iteration of those C2 ran is the settled one.
 *
 * <p>Recording every allocation slows allocating code ~80x: it runs in forks of its own, never
 * timed.
 *
 * <p>How to use: {@code java -jar target/benchmarks.jar <regex> -wi 4
 * -prof "hotpath.profiler.AllocSiteProfiler:dir=sites"} (iterations=K: record the last K warmup
 * iterations, K+1 or more warmups needed; recording starts in the iteration before them)
 */
public final class AllocSiteProfiler implements InternalProfiler {

    /** The file format's first line; the analysis refuses files without it. */
    static final String HEADER = "# hotpath allocation sites 2";
    /** async-profiler's event: every heap allocation (interval 1), its stack and size. */
    private static final String EVENT = "event=alloc,alloc=1";
    /** The compiler counts as idle when its total time has not moved for this long ... */
    static final long IDLE_MS = 100;
    /** ... and a recorded iteration waits for it at most this long. */
    static final long MAX_WAIT_MS = 3_000;
    private static final long POLL_MS = 20;

    private final AsyncProfiler profiler;
    private final Path dir;
    /** How many warmup iterations are recorded, the last ones. */
    private final int iterations;
    private int warmups;
    private String benchmark;
    /** A recording is under way for this benchmark (from the start to its last iteration) ... */
    private boolean running;
    /** ... and the profiler records now (stopped between recorded iterations and for dumps). */
    private boolean active;
    /** The recording's stacks when the current recorded iteration began. */
    private Map<String, long[]> start;
    /** How long the current recorded iteration waited for the compiler, ms. */
    private long waited;
    /** Whether C2's code of the benchmark was in use when the current recorded iteration began. */
    private boolean compiled;
    /** The recorded iterations so far, as the file's text. */
    private final StringBuilder recordedText = new StringBuilder();
    private int recordedCount;

    public AllocSiteProfiler(String initLine) throws ProfilerException {
        Map<String, String> options = options(initLine);
        String folder = options.remove("dir");
        if (folder == null || folder.isBlank()) {
            throw new ProfilerException("AllocSiteProfiler needs dir=<folder> for its files");
        }
        String count = options.remove("iterations");
        try {
            iterations = count == null ? 2 : Integer.parseInt(count);
        } catch (NumberFormatException e) {
            throw new ProfilerException("AllocSiteProfiler: iterations=" + count + " is not a number");
        }
        if (iterations < 1) {
            throw new ProfilerException("AllocSiteProfiler: iterations=" + count + " must be 1 or more");
        }
        if (!options.isEmpty()) {
            throw new ProfilerException("AllocSiteProfiler: unknown options " + options.keySet()
                    + "; known: dir, iterations");
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
        return "Heap allocation sites of the last warmup iterations, each after the JIT has gone idle (async-profiler alloc, every allocation)";
    }

    /** The 1-based warmup iteration that is recorded first, of {@code count}. */
    private int firstRecorded(int count) {
        int first = count - iterations + 1;
        if (first < 2) {
            throw new IllegalStateException("AllocSiteProfiler records the last " + iterations
                    + " warmup iterations and needs one before them: run with -wi " + (iterations + 1) + " or more");
        }
        return first;
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
            recordedText.setLength(0);
            recordedCount = 0;
        }
        warmups++;
        int first = firstRecorded(iterationParams.getCount());
        try {
            // Recording starts one iteration early: a thread's heap sampling takes effect from its
            // next TLAB, so the first megabytes after a start go unseen (9-20% of an iteration's
            // operations on KnownAllocationSitesBenchmark, a System.gc() after the start
            // included). A recorded iteration is the difference of two dumps of one recording.
            if (warmups == first - 1) {
                profiler.execute("start," + EVENT);
                running = active = true;
            } else if (warmups >= first && running) {
                // Read only a stopped recording: a dump beside live recording crashed a fork in
                // async-profiler's native code (SIGSEGV in libc under execute0, a loaded host).
                // Between the stop and the resume the benchmark's thread waits for its iteration.
                if (active) {
                    profiler.execute("stop");
                    active = false;
                }
                waited = waitForIdleCompiler();
                compiled = compiledByC2(benchmarkParams.getBenchmark());
                start = dump();
                profiler.execute("resume," + EVENT);
                active = true;
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot start async-profiler alloc: " + e.getMessage(), e);
        }
    }

    /** Waits until the JIT's total compilation time stands still for IDLE_MS; the ms waited. */
    static long waitForIdleCompiler() throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return 0;
        }
        long began = System.nanoTime();
        long last = jit.getTotalCompilationTime();
        long stillSince = began;
        while (true) {
            long now = System.nanoTime();
            if (now - stillSince >= IDLE_MS * 1_000_000 || now - began >= MAX_WAIT_MS * 1_000_000) {
                return (now - began) / 1_000_000;
            }
            Thread.sleep(POLL_MS);
            long total = jit.getTotalCompilationTime();
            if (total != last) {
                last = total;
                stillSince = System.nanoTime();
            }
        }
    }

    /**
     * Whether C2 (tier 4) code of the benchmark method, or of JMH's stub loop around it, is in
     * use: the JVM's own list of compiled methods ({@code jcmd Compiler.codelist}: id, level,
     * state, method). Until then the code runs without escape analysis, allocating objects C2
     * removes; a JVM that cannot say counts as compiled.
     */
    static boolean compiledByC2(String benchmark) {
        String list;
        try {
            list = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerCodelist",
                    new Object[] {null}, new String[] {String[].class.getName()});
        } catch (Exception e) {
            return true;
        }
        int dot = benchmark.lastIndexOf('.');
        int pkg = benchmark.lastIndexOf('.', dot - 1);
        String stub = benchmark.substring(0, pkg) + ".jmh_generated." + benchmark.substring(pkg + 1, dot)
                + "_" + benchmark.substring(dot + 1) + "_jmhTest.";
        return compiledByC2(list, benchmark, stub);
    }

    static boolean compiledByC2(String codelist, String benchmark, String stub) {
        for (String line : codelist.split("\n")) {
            String[] f = line.trim().split(" ", 4);
            if (f.length == 4 && f[1].equals("4") && f[2].equals("0")
                    && (f[3].startsWith(benchmark + "(") || f[3].startsWith(stub) && f[3].contains("_jmhStub("))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        if (start == null) {
            return List.of();
        }
        Map<String, long[]> stacks;
        try {
            profiler.execute("stop");
            active = false;
            stacks = dump();
        } catch (Exception e) {
            running = active = false;
            throw new IllegalStateException("cannot read async-profiler alloc: " + e.getMessage(), e);
        }
        for (Map.Entry<String, long[]> e : start.entrySet()) {
            long[] v = stacks.get(e.getKey());
            v[0] -= e.getValue()[0];
            v[1] -= e.getValue()[1];
        }
        start = null;
        recordedCount++;
        recordedText.append("iteration\t").append(recordedCount)
                .append("\tops\t").append(result.getMetadata().getAllOps())
                .append("\twaited_ms\t").append(waited)
                .append("\tc2\t").append(compiled ? 1 : 0).append('\n')
                .append("stacks\tallocations\tbytes\tframes (root first; the last is the allocated type)\n");
        for (Map.Entry<String, long[]> e : stacks.entrySet()) {
            long[] v = e.getValue();
            if (v[0] == 0 && v[1] == 0) {
                continue;
            }
            recordedText.append(v[0]).append('\t').append(v[1]).append('\t').append(e.getKey()).append('\n');
        }
        if (recordedCount < iterations) {
            return List.of();  // stopped until the next recorded iteration's beforeIteration resumes
        }
        running = false;
        StringBuilder out = new StringBuilder(HEADER).append('\n')
                .append("benchmark\t").append(benchmarkParams.getBenchmark()).append('\n');
        for (String key : benchmarkParams.getParamsKeys()) {
            out.append("param\t").append(key).append('\t').append(benchmarkParams.getParam(key)).append('\n');
        }
        out.append("jvm\t").append(System.getProperty("java.vm.version")).append('\n').append(recordedText);
        recordedText.setLength(0);
        recordedCount = 0;
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
