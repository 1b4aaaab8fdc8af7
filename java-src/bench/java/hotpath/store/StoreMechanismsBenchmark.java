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
 * Which of PR #10526's five changes pays: the combined path of {@link StorePullPathBenchmark}
 * widened to the whole of it, 32 messages (200 to 1,000 bytes) put with their latency recorded,
 * appended to a mapped commit log, dispatched into the consume queue, and pulled back into a
 * GetMessageResult ({@link MechanismStore}), with old, optimized, each mechanism alone
 * ({@code old+x}) and each taken back ({@code optimized-x}) ({@link StoreMechanism}:
 * {@code primitive-offsets}, {@code reused-request}, {@code slices}, {@code no-lambda},
 * {@code cached-key}), so that the old-to-optimized change in time and B/op can be split among
 * them. The write-up measured only a broker end to end, and no change on its own. The setup
 * checks the variant's state (consume-queue bytes, pulled offsets and bytes, counts, sizes, key,
 * stats) against old's and aborts on a difference.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar StoreMechanisms -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StoreMechanismsBenchmark {

    static final int MESSAGES = 32;

    // Old, optimized, each alone, each taken back, as StoreMechanism.aloneAndTakenBack() lists them (a test holds them equal).
    @Param({"old", "optimized", "old+primitive-offsets", "old+reused-request", "old+slices", "old+no-lambda",
            "old+cached-key", "optimized-primitive-offsets", "optimized-reused-request", "optimized-slices",
            "optimized-no-lambda", "optimized-cached-key"})
    String variant;

    private MechanismStore store;
    private byte[][] messages;
    private long[] tagsCodes;

    @Setup
    public void setUp() {
        Random rnd = new Random(42);
        messages = new byte[MESSAGES][];
        tagsCodes = new long[MESSAGES];
        for (int i = 0; i < MESSAGES; i++) {
            messages[i] = new byte[200 + rnd.nextInt(800)];
            rnd.nextBytes(messages[i]);
            tagsCodes[i] = rnd.nextLong();
        }
        MechanismStore.requireSameState(variant, "TopicTest", messages, tagsCodes, 8);
        store = MechanismStore.of(variant, "TopicTest", 3);
        for (int round = 0; round < 5; round++) { // queue offsets past the Long cache, as in a running broker
            store.putAndPull(messages, tagsCodes);
        }
    }

    @TearDown
    public void tearDown() {
        store.close();
    }

    @Benchmark
    public GetMessageResult pull32() {
        return store.putAndPull(messages, tagsCodes);
    }
}
