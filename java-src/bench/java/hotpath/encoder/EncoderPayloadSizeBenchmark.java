package hotpath.encoder;

import java.nio.ByteBuffer;
import java.util.Random;
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
 * How encoding cost grows with the payload: byte[] values from 64 B to 1 MB. The slope of
 * B/op against size is the number of payload copies each encoder allocates (about 5 old, 1
 * optimized and floor for byte[]: the packet itself).
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar EncoderPayloadSize -prof gc}
 */
@State(Scope.Thread)
@Fork(jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED") // Ignite 2.17.0 reads Buffer.address
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EncoderPayloadSizeBenchmark {

    @Param({"old", "optimized", "floor", "upstream"})
    EncoderVariant variant;

    @Param({"64", "1024", "8192", "65536", "1048576"})
    int size;

    private byte[] value;
    private MemcacheResponse response;

    @Setup
    public void setUp() {
        value = Payloads.bytes(new Random(42), size);
        EncoderVariant.requireSamePackets(variant, EncoderPayloadBenchmark.KEY, value, EncoderPayloadBenchmark.GET);
        response = new MemcacheResponse(EncoderPayloadBenchmark.KEY, value, EncoderPayloadBenchmark.GET, (short) 0, 7);
    }

    @Benchmark
    public ByteBuffer encode() {
        response.key(EncoderPayloadBenchmark.KEY);
        response.value(value);
        return variant.encode(response);
    }
}
