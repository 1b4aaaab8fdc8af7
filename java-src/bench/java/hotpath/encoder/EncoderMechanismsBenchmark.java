package hotpath.encoder;

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
 * Which part of IGNITE-28847 pays: the GET response encoding of {@link EncoderPayloadBenchmark}
 * (a short String key, the write-up's four payloads), with every combination of its three
 * mechanisms applied to old ({@link EncoderMechanism}: {@code direct-bytes}, {@code exact-size},
 * {@code no-mutation}), so that the old-to-optimized change in time and B/op can be split among
 * them. {@code old} and {@code optimized} here are {@link MechanismMemcacheEncoder} with no and
 * every mechanism; they allocate what {@link OldMemcacheEncoder} and
 * {@link OptimizedMemcacheEncoder} do ({@code MechanismMemcacheEncoderAllocationTest}). As there,
 * every operation first puts the original key and value back, for every variant.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar EncoderMechanisms -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EncoderMechanismsBenchmark {

    // Every combination, as EncoderMechanism.everyCombination() lists them (a test holds them equal).
    @Param({"old", "old+direct-bytes", "old+exact-size", "old+no-mutation", "old+direct-bytes+exact-size",
            "old+direct-bytes+no-mutation", "old+exact-size+no-mutation", "optimized"})
    String variant;

    @Param({"STR_64", "STR_1K", "BYTES_8K", "OBJ_MAP"})
    Payloads payload;

    private Object value;
    private MemcacheResponse response;
    private MechanismMemcacheEncoder encoder;

    @Setup
    public void setUp() {
        value = payload.create(42);
        encoder = MechanismMemcacheEncoder.of(variant);
        byte[] expected = new OldMemcacheEncoder().encodeMemcache(
                new MemcacheResponse(EncoderPayloadBenchmark.KEY, value, EncoderPayloadBenchmark.GET, (short) 0, 7)).array();
        byte[] actual = encoder.encodeMemcache(
                new MemcacheResponse(EncoderPayloadBenchmark.KEY, value, EncoderPayloadBenchmark.GET, (short) 0, 7)).array();
        if (!Arrays.equals(expected, actual)) {
            throw new IllegalStateException(variant + " encodes a different packet than old; no timing is valid");
        }
        response = new MemcacheResponse(EncoderPayloadBenchmark.KEY, value, EncoderPayloadBenchmark.GET, (short) 0, 7);
    }

    @Benchmark
    public ByteBuffer encode() {
        response.key(EncoderPayloadBenchmark.KEY);
        response.value(value);
        return encoder.encodeMemcache(response);
    }
}
