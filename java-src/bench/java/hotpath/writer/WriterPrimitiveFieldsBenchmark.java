package hotpath.writer;

import java.nio.ByteBuffer;
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
 * Writing the write-up's ~35-field primitive message (8 x (int, long, byte, boolean) and a
 * UUID): the only difference between the variants here is the per-write stream lookup
 * ({@code state.item().stream}) that the optimized writer replaces with a cached field. The
 * write-up saw no difference beyond error (34.9M vs 35.3M ops/s). {@code floor} writes
 * primitives as the optimized writer does: here it is a control. {@code upstream} is the
 * released DirectMessageWriter (Ignite 2.17.0) writing the same fields to the same bytes.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar WriterPrimitiveFields -prof gc}
 */
@State(Scope.Thread)
@Fork(jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED") // Ignite 2.17.0 reads Buffer.address
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WriterPrimitiveFieldsBenchmark {

    @Param({"old", "optimized", "floor", "upstream"})
    WriterVariant variant;

    private MessageWriter writer;
    private UpstreamPrimitiveWriter released;
    private PrimitiveFieldsMessage message;
    private ByteBuffer buffer;

    @Setup
    public void setUp() {
        message = PrimitiveFieldsMessage.random(42);
        WriterVariant.requireSameBytes(message, 8192);
        if (variant == WriterVariant.upstream) {
            UpstreamPrimitiveWriter.requireSameBytes(message);
            released = new UpstreamPrimitiveWriter(message);
        } else {
            writer = variant.newWriter();
        }
        // Network buffers are direct; one per connection, reused.
        buffer = ByteBuffer.allocateDirect(8192);
    }

    @Benchmark
    public long primitiveFields() {
        return released != null ? released.writeCounting(buffer) : MessageWire.writeCounting(writer, message, buffer);
    }
}
