package hotpath.store;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The combined pull path the write-up could not exercise: 32 messages selected from a real
 * mapped commit log and collected into a GetMessageResult, old vs optimized (changes 1 and 3)
 * vs floor (the result's exact arrays; each message's view and mapped result stay: the pull
 * hands them on).
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar StorePullPath -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StorePullPathBenchmark {

    static final int MESSAGES = 32;

    @Param({"old", "optimized", "floor", "upstream"})
    StoreVariant variant;

    private MappedFile commitLog;
    private UpstreamMappedFile released;
    private int[] positions;
    private int[] sizes;

    @Setup
    public void setUp() {
        StoreEquivalence.requireSamePull(MESSAGES);
        commitLog = MappedFile.temporary(1 << 20, variant.isOptimized());
        Random rnd = new Random(42);
        positions = new int[MESSAGES];
        sizes = new int[MESSAGES];
        for (int i = 0; i < MESSAGES; i++) {
            sizes[i] = 200 + rnd.nextInt(800);
            positions[i] = commitLog.wrotePosition();
            byte[] msg = new byte[sizes[i]];
            rnd.nextBytes(msg);
            commitLog.append(msg);
        }
        if (variant.isUpstream()) {
            UpstreamStore.requireSamePull(MESSAGES);
            released = new UpstreamMappedFile(1 << 20);
            released.append(commitLog.bytes(0, commitLog.wrotePosition()));
        }
    }

    @TearDown
    public void tearDown() {
        commitLog.close();
        if (released != null) {
            released.close();
        }
    }

    @Benchmark
    public Object pull32() {
        if (variant.isUpstream()) {
            org.apache.rocketmq.store.GetMessageResult result = new org.apache.rocketmq.store.GetMessageResult();
            for (int i = 0; i < MESSAGES; i++) {
                result.addMessage(released.selectMappedBuffer(positions[i], sizes[i]), 5_000_000L + i);
            }
            return result;
        }
        GetMessageResult result = variant.newResult(MESSAGES);
        for (int i = 0; i < MESSAGES; i++) {
            result.addMessage(commitLog.selectMappedBuffer(positions[i], sizes[i]), 5_000_000L + i);
        }
        return result;
    }
}
