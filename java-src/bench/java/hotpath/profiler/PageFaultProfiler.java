package hotpath.profiler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Page faults per operation: the first touch of memory the process had not used, which
 * {@code -prof gc} cannot see and a low quantile of a fork's iterations can step over. Old zip's
 * Deflaters, never ended, hold zlib's native state until a collection lets the Cleaner free it;
 * between collections each new one is fresh memory, faulted in page by page. The process's
 * minor and major fault counters ({@code /proc/self/stat}) are read around every iteration, JMH's
 * own warmup included, and divided by the iteration's operation count as GCProfiler does.
 * Secondary metric: {@code faults.norm}, in faults/op. Read before and after each iteration,
 * outside its timed loop, as GCProfiler reads its counters: fit for timed forks. Where there is no
 * {@code /proc} it reports nothing.
 *
 * <p>How to use: {@code java -jar target/benchmarks.jar <regex> -prof hotpath.profiler.PageFaultProfiler}
 */
public final class PageFaultProfiler implements InternalProfiler {

    private static final Path STAT = Path.of("/proc/self/stat");

    private long before = -1;

    @Override
    public String getDescription() {
        return "Page faults (minor and major, the whole process) per op, from /proc/self/stat";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = faults();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        long after = faults();
        long ops = result.getMetadata().getAllOps();
        if (before < 0 || after < 0 || ops == 0) {
            return List.of();
        }
        return List.of(new ScalarResult("faults.norm", (double) (after - before) / ops, "faults/op",
                AggregationPolicy.AVG));
    }

    /** The process's minor plus major page faults so far; -1 where they cannot be read. */
    static long faults() {
        try {
            return parse(Files.readString(STAT, StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Minor plus major faults from one {@code /proc/<pid>/stat} line: fields 10 and 12, counted
     * after the command name, which is in parentheses and may itself hold spaces.
     */
    static long parse(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(fields[7]) + Long.parseLong(fields[9]);
    }
}
