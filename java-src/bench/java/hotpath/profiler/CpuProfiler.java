package hotpath.profiler;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
 * Where a fork's CPU time went, iteration by iteration: async-profiler's {@code cpu} engine
 * (perf events' cpu-clock, kernel frames included; {@code itimer} where perf events are refused)
 * samples every thread of the fork during each measurement iteration, each stack rooted at its
 * thread's name, and the iteration's samples are written with its operations and its score to a
 * file of the fork's own in {@code dir}. Iteration by iteration, so that hotpath's analysis
 * attributes only the iterations a fork's figure counts (its steady segment); the scores tie the
 * file to the fork's JMH results.
 *
 * <p>It rides in timed forks only behind them: with {@code tail=K} it samples the fork's last K
 * measurement iterations alone, which hotpath runs after the ones a fork's figure counts and
 * leaves out of its results (each iteration says whether it was one of them: the secondary result
 * {@code cpu.tail}, 1 or 0). The counted iterations run before async-profiler is even loaded: a
 * sampled iteration costs about 1% (each start opens the sampler afresh), and nothing of it spills
 * into the iteration after, as docs/evidence/what-the-cpu-sampler-costs.md measures. Without
 * {@code tail}, every measurement iteration is sampled ({@code make cpu}'s forks of their own).
 *
 * <p>The file: a header, the fork's benchmark, params, JVM, engine, interval and tail; frames and
 * stacks are named once, by number, where first seen ({@code frame<TAB>id<TAB>name},
 * {@code stack<TAB>id<TAB>frame ids root first}); each iteration is a line
 * {@code iteration<TAB>k<TAB>ops<TAB>n<TAB>score<TAB>s<TAB>unit<TAB>u<TAB>window_ns<TAB>w<TAB>cpu_ns<TAB>c}
 * followed by {@code samples<TAB>stack id<TAB>count} lines; an iteration not sampled is a line
 * {@code iteration<TAB>k<TAB>ops<TAB>n<TAB>score<TAB>s<TAB>unit<TAB>u<TAB>cpu_ns<TAB>c<TAB>sampled<TAB>0}, so
 * that every iteration's score ties the file to its fork. {@code cpu_ns} is the CPU time the
 * benchmark's threads took in the iteration, from the JVM's own thread clocks (-1 where it has none):
 * the samples cannot give it, for each start counts a fresh interval and the last part of an
 * iteration's CPU, up to one interval, is never sampled (a tenth of a 100 ms iteration at 10 ms).
 *
 * <p>How to use: {@code java -jar target/benchmarks.jar <regex>
 * -prof "hotpath.profiler.CpuProfiler:dir=cpu"} (interval=ns; event=itimer to force the fallback;
 * sampled=abba to sample only the first and last iteration of every four, so that the two between
 * them, unsampled, measure the sampler's cost within the same fork: the order cancels a drift;
 * tail=K to sample only the last K)
 */
public final class CpuProfiler implements InternalProfiler {

    /** The file format's first line; the analysis refuses files without it. */
    static final String HEADER = "# hotpath cpu samples 1";
    /** 10 ms of a thread's CPU between samples. */
    static final long DEFAULT_INTERVAL_NS = 10_000_000L;

    /** Loaded at the first sampled iteration: before it, the fork runs as if without a sampler. */
    private AsyncProfiler profiler;
    private final Path dir;
    private final long interval;
    /** The engines tried in order: perf events first, the timer where they are refused. */
    private final List<String> engines;
    /** The engine that started, once one has. */
    private String engine;
    /** Why no engine started, once none has: the fork then goes unsampled. */
    private String refused;
    private String benchmark;
    private boolean running;
    private long windowStart;
    /** Measurement iterations so far of the current benchmark, sampled or not. */
    private int iterations;
    /** Sample only iterations 1 and 4 of every four (the cost measurement's design). */
    private final boolean abba;
    /** Sample only the last {@code tail} measurement iterations (0: no such limit). */
    private final int tail;
    private final ThreadMXBean clocks = ManagementFactory.getThreadMXBean();
    /** The benchmark threads' CPU clocks when the window opened, by thread id. */
    private final Map<Long, Long> cpuAtStart = new HashMap<>();
    private final Map<String, Integer> frames = new HashMap<>();
    private final Map<String, Integer> stacks = new HashMap<>();
    private final StringBuilder text = new StringBuilder();

    public CpuProfiler(String initLine) throws ProfilerException {
        Map<String, String> options = AllocSiteProfiler.options(initLine);
        String folder = options.remove("dir");
        if (folder == null || folder.isBlank()) {
            throw new ProfilerException("CpuProfiler needs dir=<folder> for its files");
        }
        String every = options.remove("interval");
        try {
            interval = every == null ? DEFAULT_INTERVAL_NS : Long.parseLong(every);
        } catch (NumberFormatException e) {
            throw new ProfilerException("CpuProfiler: interval=" + every + " is not a number of nanoseconds");
        }
        if (interval < 100_000L) {
            throw new ProfilerException("CpuProfiler: interval=" + every + " ns is below 0.1 ms");
        }
        String event = options.remove("event");
        if (event != null && !event.equals("cpu") && !event.equals("itimer")) {
            throw new ProfilerException("CpuProfiler: event=" + event + "; known: cpu, itimer");
        }
        engines = "itimer".equals(event) ? List.of("itimer") : List.of("cpu", "itimer");
        String sampled = options.remove("sampled");
        if (sampled != null && !sampled.equals("all") && !sampled.equals("abba")) {
            throw new ProfilerException("CpuProfiler: sampled=" + sampled + "; known: all, abba");
        }
        abba = "abba".equals(sampled);
        String last = options.remove("tail");
        try {
            tail = last == null ? 0 : Integer.parseInt(last);
        } catch (NumberFormatException e) {
            throw new ProfilerException("CpuProfiler: tail=" + last + " is not a number of iterations");
        }
        if (tail < 0 || tail > 0 && abba) {
            throw new ProfilerException("CpuProfiler: tail=" + last + " must be a positive number of iterations, without sampled=abba");
        }
        if (!options.isEmpty()) {
            throw new ProfilerException("CpuProfiler: unknown options " + options.keySet()
                    + "; known: dir, interval, event, sampled, tail");
        }
        dir = Path.of(folder);
    }

    @Override
    public String getDescription() {
        return "CPU samples of every thread, per measurement iteration (async-profiler cpu, itimer where perf events are refused)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (iterationParams.getType() != IterationType.MEASUREMENT || refused != null) {
            return;
        }
        // Without forks (-f 0) one JVM runs several benchmarks: each writes its own file.
        String key = AllocSiteProfiler.fileName(benchmarkParams);
        if (!key.equals(benchmark)) {
            benchmark = key;
            text.setLength(0);
            frames.clear();
            stacks.clear();
            iterations = 0;
        }
        if (sampled(iterations, iterationParams.getCount())) {
            start();
            windowStart = System.nanoTime();
        }
        // every iteration's CPU, sampled or not: the thread's own clock, which the host's stolen
        // seconds do not move, measures what a JVM flag costs the counted iterations
        cpuAtStart.clear();
        benchmarkCpu(cpuAtStart);
    }

    /** Whether the measurement iteration of index {@code k} (from 0) of {@code count} is sampled. */
    boolean sampled(int k, int count) {
        if (tail > 0) {
            return k >= count - tail;
        }
        return !abba || k % 4 == 0 || k % 4 == 3;
    }

    /**
     * A new recording (start drops the last one's samples) with the first engine that starts.
     * Where none starts, the fork goes on unsampled and writes no file: a sampler must never
     * stop the timed forks it rides in. Why is said once, in JMH's output.
     */
    private void start() {
        if (refused != null) {
            return;
        }
        if (profiler == null) {
            try {
                profiler = NativeAllocProfiler.load();
            } catch (ProfilerException e) {
                refuse(e.getMessage());
                return;
            }
        }
        StringBuilder why = new StringBuilder();
        for (String e : engine == null ? engines : List.of(engine)) {
            try {
                profiler.execute("start,event=" + e + ",interval=" + interval + ",threads");
                engine = e;
                running = true;
                return;
            } catch (Exception | Error x) {
                why.append(why.length() == 0 ? "" : "; ").append("event=").append(e).append(": ").append(x.getMessage());
            }
        }
        refuse("async-profiler refused every engine (" + why + ")");
    }

    /** Sampling stops for the rest of the fork, which writes no file; why is said once. */
    private void refuse(String why) {
        refused = why;
        text.setLength(0);
        System.err.println("CpuProfiler: " + why + ": this fork is not sampled");
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        if (iterationParams.getType() != IterationType.MEASUREMENT || !running && refused != null) {
            return List.of();
        }
        if (result.getRawPrimaryResults().isEmpty()) {
            // the benchmark threw: JMH names the failure; the fork writes no file
            stopQuietly();
            refused = "the benchmark gave no result";
            return List.of();
        }
        List<Result> tailMark = tail == 0 ? List.of()
                : List.of(new ScalarResult("cpu.tail", running ? 1 : 0, "", AggregationPolicy.MAX));
        if (!running) {
            text.append("iteration\t").append(iterations + 1)
                    .append("\tops\t").append(result.getMetadata().getAllOps())
                    .append("\tscore\t").append(result.getPrimaryResult().getScore())
                    .append("\tunit\t").append(result.getPrimaryResult().getScoreUnit())
                    .append("\tcpu_ns\t").append(cpuSince(cpuAtStart))
                    .append("\tsampled\t0\n");
            countIteration(benchmarkParams, iterationParams);
            return tailMark;
        }
        String collapsed;
        long window;
        long cpu;
        try {
            // Read only a stopped recording (a dump beside a live one crashed a fork: AllocSiteProfiler).
            profiler.execute("stop");
            window = System.nanoTime() - windowStart;
            running = false;
            cpu = cpuSince(cpuAtStart);
            collapsed = profiler.execute("collapsed");
        } catch (Exception e) {
            running = false;
            refuse("async-profiler's samples could not be read: " + e.getMessage());
            return List.of();
        }
        text.append("iteration\t").append(iterations + 1)
                .append("\tops\t").append(result.getMetadata().getAllOps())
                .append("\tscore\t").append(result.getPrimaryResult().getScore())
                .append("\tunit\t").append(result.getPrimaryResult().getScoreUnit())
                .append("\twindow_ns\t").append(window)
                .append("\tcpu_ns\t").append(cpu).append('\n');
        Map<Integer, Long> counts = new TreeMap<>();
        NativeAllocations.eachStack(collapsed, (stack, n) -> counts.merge(stackId(stack), n, Long::sum));
        counts.forEach((id, n) -> text.append("samples\t").append(id).append('\t').append(n).append('\n'));
        countIteration(benchmarkParams, iterationParams);
        return tailMark;
    }

    private void stopQuietly() {
        if (running) {
            running = false;
            try {
                profiler.execute("stop");
            } catch (Exception e) {
                // nothing of this fork is written
            }
        }
    }

    private void countIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        iterations++;
        if (iterations == iterationParams.getCount()) {
            write(benchmarkParams);
        }
    }

    /**
     * The CPU clocks of the threads that run the benchmark (JMH's workers), by id, into
     * {@code into}; nothing where the JVM keeps no thread clocks.
     */
    private void benchmarkCpu(Map<Long, Long> into) {
        if (!clocks.isThreadCpuTimeSupported() || !clocks.isThreadCpuTimeEnabled()) {
            return;
        }
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] all = new Thread[root.activeCount() + 16];
        int n = root.enumerate(all, true);
        for (int i = 0; i < n; i++) {
            if (all[i].getName().contains("jmh-worker")) {
                long t = clocks.getThreadCpuTime(all[i].getId());
                if (t >= 0) {
                    into.put(all[i].getId(), t);
                }
            }
        }
    }

    /**
     * The CPU the benchmark's threads took since {@code start} (a thread begun since counts from
     * 0), or -1 where the JVM keeps no thread clocks or no worker was found.
     */
    private long cpuSince(Map<Long, Long> start) {
        Map<Long, Long> now = new HashMap<>();
        benchmarkCpu(now);
        if (now.isEmpty()) {
            return -1;
        }
        long sum = 0;
        for (Map.Entry<Long, Long> e : now.entrySet()) {
            sum += e.getValue() - start.getOrDefault(e.getKey(), 0L);
        }
        return sum;
    }

    /** The stack's number, naming it (and its new frames) in the file where first seen. */
    private int stackId(String stack) {
        Integer known = stacks.get(stack);
        if (known != null) {
            return known;
        }
        String[] names = stack.split(";");
        StringBuilder ids = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            String name = i == 0 ? threadName(names[i]) : names[i];
            Integer id = frames.get(name);
            if (id == null) {
                id = frames.size();
                frames.put(name, id);
                text.append("frame\t").append(id).append('\t').append(name).append('\n');
            }
            ids.append(i == 0 ? "" : " ").append(id);
        }
        int id = stacks.size();
        stacks.put(stack, id);
        text.append("stack\t").append(id).append('\t').append(ids).append('\n');
        return id;
    }

    /**
     * A stack's root as the thread's name alone: {@code [GC Thread#0 tid=4242]} is
     * {@code [GC Thread#0]}, so that one fork's threads and the next's are the same frames.
     */
    static String threadName(String root) {
        int tid = root.lastIndexOf(" tid=");
        return root.startsWith("[") && root.endsWith("]") && tid > 0 ? root.substring(0, tid) + "]" : root;
    }

    private void write(BenchmarkParams params) {
        StringBuilder out = new StringBuilder(HEADER).append('\n')
                .append("benchmark\t").append(params.getBenchmark()).append('\n');
        for (String key : params.getParamsKeys()) {
            out.append("param\t").append(key).append('\t').append(params.getParam(key)).append('\n');
        }
        out.append("jvm\t").append(System.getProperty("java.vm.version")).append('\n')
                .append("engine\t").append(engine).append('\n')
                .append("interval_ns\t").append(interval).append('\n')
                .append(tail > 0 ? "tail\t" + tail + "\n" : "")
                .append(text);
        text.setLength(0);
        frames.clear();
        stacks.clear();
        iterations = 0;
        benchmark = null;
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(AllocSiteProfiler.fileName(params).replace(".sites", ".cpu"));
            Files.writeString(file, out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write CPU samples to " + dir + ": " + e.getMessage(), e);
        }
    }
}
