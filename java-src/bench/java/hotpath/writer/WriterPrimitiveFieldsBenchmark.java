package hotpath.writer;

import java.nio.ByteBuffer;
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
 * Writing the write-up's ~35-field primitive message (8 x (int, long, byte, boolean) and a
 * UUID): the only difference between the variants here is the per-write stream lookup
 * ({@code state.item().stream}) that the optimized writer replaces with a cached field. The
 * write-up saw no difference beyond error (34.9M vs 35.3M ops/s). {@code floor} writes
 * primitives as the optimized writer does: here it is a control.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar WriterPrimitiveFields -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WriterPrimitiveFieldsBenchmark {

    @Param({"old", "optimized", "floor"})
    WriterVariant variant;

    private MessageWriter writer;
    private PrimitiveFieldsMessage message;
    private ByteBuffer buffer;

    @Setup
    public void setUp() {
        message = PrimitiveFieldsMessage.random(42);
        WriterVariant.requireSameBytes(message, 8192);
        writer = variant.newWriter();
        // Network buffers are direct; one per connection, reused.
        buffer = ByteBuffer.allocateDirect(8192);
    }

    @Benchmark
    public long primitiveFields() {
        return MessageWire.writeCounting(writer, message, buffer);
    }
}
