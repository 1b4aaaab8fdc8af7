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
 * Writing an exchange-style message with two compressed map fields. The old writer serializes
 * each field into a fresh 10 KB direct buffer with a brand-new writer; the optimized one reuses a
 * heap scratch buffer and writer. {@code entries} is the write-up's 30 (fields of ~2.5 KB, below
 * the scratch) and 500 (~42 KB: the scratch doubles through 20, 40 and 80 KB for each field,
 * the write-up's ~300 KB of direct buffers), plus fields of 8 KB (98), 9.2 KB (111) and 83 KB
 * (1000) around and well past the 10 KB scratch. Direct bytes are invisible to {@code -prof gc}.
 * The {@code floor} writer (beyond the write-up) also keeps a per-thread Deflater and writes the
 * field without copying it: the zlib state that both write-up variants malloc per field goes,
 * and so does the byte[] per string: strings are encoded straight into the scratch.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar WriterCompressedMap -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WriterCompressedMapBenchmark {

    @Param({"old", "optimized", "floor"})
    WriterVariant variant;

    @Param({"30", "98", "111", "500", "1000"})
    int entries;

    private MessageWriter writer;
    private ExchangeMessage message;
    private ByteBuffer buffer;

    @Setup
    public void setUp() {
        message = ExchangeMessage.random(entries, 42);
        WriterVariant.requireSameBytes(message, 65536);
        writer = variant.newWriter();
        buffer = ByteBuffer.allocateDirect(65536);
    }

    @Benchmark
    public long compressedMapFields() {
        return MessageWire.writeCounting(writer, message, buffer);
    }
}
