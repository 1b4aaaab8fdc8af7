package hotpath.marshaller;

import java.io.IOException;
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
 * Warm pool vs cold thread, 16 KB objects. {@code warm}: the thread's pooled array has already
 * grown to fit; {@code cold}: every call starts with an empty pool (as on a new thread), so the
 * writer allocates its 1024-byte array and grows it by doubling — costs both variants share,
 * beside which the saved byte[N] is smaller. For {@code floor}, a cold thread also makes its
 * reusable writer.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar MarshallerPool -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MarshallerPoolBenchmark {

    @Param({"old", "optimized", "floor"})
    MarshallerVariant variant;

    @Param({"warm", "cold"})
    String pool;

    private Marshaller warm;
    private Order order;
    private ByteSink sink;

    @Setup
    public void setUp() {
        if (!pool.equals("warm") && !pool.equals("cold")) {
            throw new IllegalArgumentException("unknown pool state " + pool);
        }
        order = Order.ofSize(16 * 1024, 42);
        MarshallerVariant.requireSameBytes(order);
        warm = variant.create("node-1", new ArrayPool());
        sink = new ByteSink(16 * 1024);
    }

    @Benchmark
    public ByteSink marshalToStream() throws IOException {
        Marshaller m = pool.equals("cold") ? variant.create("node-1", new ArrayPool()) : warm;
        m.marshal(order, sink.reset());
        return sink;
    }
}
