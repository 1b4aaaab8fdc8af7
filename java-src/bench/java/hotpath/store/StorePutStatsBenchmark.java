package hotpath.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Change 4: recording put statistics. Old: a capturing lambda and a dependent future per put
 * ({@code thenAccept}); optimized: a completed put is recorded inline. Both keep every
 * statistic. The store answers with an already completed future, as a synchronous flush does.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar StorePutStats -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StorePutStatsBenchmark {

    @Param({"old", "optimized"})
    StoreVariant variant;

    private PutMessagePath path;
    private final CompletableFuture<PutMessagePath.PutResult> stored =
            CompletableFuture.completedFuture(new PutMessagePath.PutResult(true));

    @Setup
    public void setUp() {
        StoreEquivalence.requireSameStats();
        path = new PutMessagePath(msg -> stored, System::currentTimeMillis, variant.isOptimized());
    }

    @Benchmark
    public CompletableFuture<PutMessagePath.PutResult> putMessage() {
        return path.putMessage("message");
    }
}
