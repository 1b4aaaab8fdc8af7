package hotpath.profiler;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * <p>The reads allocate nothing on the heap once the file is open: {@code -prof gc} counts every
 * thread's allocations between its own reads, these included, and reading the file as a String
 * (two 8 KB buffers, the String and its split) added ~22 KB an iteration to every row's B/op,
 * about 1 B/op on a 1 µs operation.
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
        return Stat.INSTANCE.faults();
    }

    /**
     * Minor plus major faults from one {@code /proc/<pid>/stat} line: fields 10 and 12, counted
     * after the command name, which is in parentheses and may itself hold spaces.
     */
    static long parse(String stat) {
        byte[] bytes = stat.getBytes(StandardCharsets.US_ASCII);
        return parse(ByteBuffer.wrap(bytes), bytes.length);
    }

    /** {@link #parse(String)} over the first {@code length} bytes of {@code line}, allocating nothing. */
    static long parse(ByteBuffer line, int length) {
        int at = -1;
        for (int i = length - 1; i >= 0; i--) {
            if (line.get(i) == ')') {
                at = i;
                break;
            }
        }
        if (at < 0) {
            throw new IllegalArgumentException("no ')' in /proc/self/stat");
        }
        long minor = -1;
        long major = -1;
        int field = 0;
        int i = at + 2;  // past ") "
        while (i < length && major < 0) {
            int end = i;
            while (end < length && line.get(end) != ' ' && line.get(end) != '\n') {
                end++;
            }
            if (field == 7 || field == 9) {
                long value = 0;
                for (int d = i; d < end; d++) {
                    byte b = line.get(d);
                    if (b < '0' || b > '9') {
                        throw new IllegalArgumentException("field " + field + " of /proc/self/stat is not a number");
                    }
                    value = value * 10 + (b - '0');
                }
                if (field == 7) {
                    minor = value;
                } else {
                    major = value;
                }
            }
            field++;
            i = end + 1;
        }
        if (major < 0) {
            throw new IllegalArgumentException("/proc/self/stat has fewer than 12 fields after the name");
        }
        return minor + major;
    }

    /** /proc/self/stat, open once and read again from its start into one direct buffer. */
    private static final class Stat {
        static final Stat INSTANCE = new Stat();
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
        private FileChannel channel;

        synchronized long faults() {
            try {
                if (channel == null) {
                    channel = FileChannel.open(STAT, StandardOpenOption.READ);
                }
                buffer.clear();
                int length = 0;
                for (int n; (n = channel.read(buffer, length)) > 0; ) {  // procfs makes the line anew at offset 0
                    length += n;
                }
                return parse(buffer, length);
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }
    }
}
