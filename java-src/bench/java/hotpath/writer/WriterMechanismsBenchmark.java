package hotpath.writer;

import java.nio.ByteBuffer;
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
 * Which part of IGNITE-28836 pays: the write-up's {@code compressedMapFields} of
 * {@link WriterCompressedMapBenchmark} (an exchange message with two compressed map fields, 30
 * and 500 entries), with every combination of its three mechanisms applied to old
 * ({@link WriterMechanism}: {@code cached-stream}, {@code heap-scratch},
 * {@code scratch-writer-once}), so that the old-to-optimized change in time, B/op and direct
 * bytes can be split among them. {@code old} and {@code optimized} here are
 * {@link MechanismDirectMessageWriter} with no and every mechanism; they allocate what
 * {@link OldDirectMessageWriter} and {@link OptimizedDirectMessageWriter} do
 * ({@code MechanismDirectMessageWriterAllocationTest}).
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar WriterMechanisms -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WriterMechanismsBenchmark {

    // Every combination, as WriterMechanism.everyCombination() lists them (a test holds them equal).
    @Param({"old", "old+cached-stream", "old+heap-scratch", "old+scratch-writer-once",
            "old+cached-stream+heap-scratch", "old+cached-stream+scratch-writer-once",
            "old+heap-scratch+scratch-writer-once", "optimized"})
    String variant;

    @Param({"30", "500"})
    int entries;

    private MessageWriter writer;
    private ExchangeMessage message;
    private ByteBuffer buffer;

    @Setup
    public void setUp() {
        message = ExchangeMessage.random(entries, 42);
        byte[] expected = MessageWire.write(WriterVariant.old.newWriter(), message, 65536);
        if (!Arrays.equals(expected, MessageWire.write(MechanismDirectMessageWriter.of(variant), message, 65536))) {
            throw new IllegalStateException(variant + " writes different bytes than old; no timing is valid");
        }
        writer = MechanismDirectMessageWriter.of(variant);
        buffer = ByteBuffer.allocateDirect(65536);
    }

    @Benchmark
    public long compressedMapFields() {
        return MessageWire.writeCounting(writer, message, buffer);
    }
}
