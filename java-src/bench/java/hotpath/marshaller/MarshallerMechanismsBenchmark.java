package hotpath.marshaller;

import java.io.IOException;
import java.util.Arrays;
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
 * Which part of IGNITE-28835 pays: the end-to-end marshal-to-stream call of
 * {@link MarshallerStreamBenchmark}, at the write-up's sizes, with every combination of its three
 * mechanisms applied to old ({@link MarshallerMechanism}: {@code trimless}, {@code one-scope},
 * {@code shared-null}), so that the old-to-optimized change in time and B/op can be split among
 * them. {@code old} and {@code optimized} here are {@link MechanismMarshaller} with no and every
 * mechanism; they allocate what {@link OldMarshaller} and {@link OptimizedMarshaller} do
 * ({@code MechanismMarshallerAllocationTest}). The objects are never null, as in the write-up's
 * call, so {@code shared-null} is expected to pay nothing here.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar MarshallerMechanisms -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MarshallerMechanismsBenchmark {

    // Every combination, as MarshallerMechanism.everyCombination() lists them (a test holds them equal).
    @Param({"old", "old+trimless", "old+one-scope", "old+shared-null", "old+trimless+one-scope",
            "old+trimless+shared-null", "old+one-scope+shared-null", "optimized"})
    String variant;

    @Param({"64", "1024", "16384", "262144"})
    int size;

    private Marshaller marshaller;
    private Order order;
    private ByteSink sink;

    @Setup
    public void setUp() throws IOException {
        order = Order.ofSize(size, 42);
        byte[] expected = new OldMarshaller("node-1", new ArrayPool()).marshal(order);
        ByteSink check = new ByteSink(16);
        MechanismMarshaller.of(variant, "node-1", new ArrayPool()).marshal(order, check);
        if (!Arrays.equals(expected, check.toByteArray())) {
            throw new IllegalStateException(variant + " streams different bytes than old; no timing is valid");
        }
        marshaller = MechanismMarshaller.of(variant, "node-1", new ArrayPool());
        sink = new ByteSink(size);
    }

    @Benchmark
    public ByteSink marshalToStream() throws IOException {
        marshaller.marshal(order, sink.reset());
        return sink;
    }
}
