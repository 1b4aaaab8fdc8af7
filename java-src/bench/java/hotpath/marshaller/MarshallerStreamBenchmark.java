package hotpath.marshaller;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The end-to-end marshal-to-stream call, serialization included, at the write-up's sizes with
 * a warm thread pool: how much of the isolated gain survives. The old path allocates one
 * byte[N] (16 + N bytes) more per call; {@code floor} (beyond the write-up) reuses the thread's
 * writer and encodes strings in place, so that a warm call allocates nothing. {@code upstream}
 * is the released old path (Ignite 2.17.0) marshalling an order of the same serialized size in
 * its own format.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar MarshallerStream -prof gc}
 */
@State(Scope.Thread)
@Fork(jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED") // Ignite 2.17.0 reads Buffer.address
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MarshallerStreamBenchmark {

    @Param({"old", "optimized", "floor", "upstream"})
    MarshallerVariant variant;

    @Param({"64", "1024", "16384", "262144"})
    int size;

    private Marshaller marshaller;
    private BinaryWritable order;
    private ByteSink sink;

    @Setup
    public void setUp() {
        Order modelOrder = Order.ofSize(size, 42);
        MarshallerVariant.requireSameBytes(variant, modelOrder);
        marshaller = variant.create("node-1", new ArrayPool());
        order = variant.payload(marshaller, modelOrder);
        sink = new ByteSink(size);
    }

    @Benchmark
    public ByteSink marshalToStream() throws IOException {
        marshaller.marshal(order, sink.reset());
        return sink;
    }
}
