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
 * The 30-entry exchange message written through outer buffers of 16 B, 8 KB and 64 KB: small
 * buffers force many swaps and resumptions, where the cached stream is refreshed most often and
 * a half-written compressed field is kept across calls (for {@code floor}, as ranges of one
 * kept array instead of chunk copies).
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar WriterBufferSize -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WriterBufferSizeBenchmark {

    @Param({"old", "optimized", "floor"})
    WriterVariant variant;

    @Param({"16", "8192", "65536"})
    int bufferSize;

    private MessageWriter writer;
    private ExchangeMessage message;
    private ByteBuffer buffer;

    @Setup
    public void setUp() {
        message = ExchangeMessage.random(30, 42);
        WriterVariant.requireSameBytes(message, bufferSize);
        writer = variant.newWriter();
        buffer = ByteBuffer.allocateDirect(bufferSize);
    }

    @Benchmark
    public long compressedMapFields() {
        return MessageWire.writeCounting(writer, message, buffer);
    }
}
