package hotpath.encoder;

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
 * Encoding a memcache GET response with a short String key and the write-up's four payloads.
 * The old encoder copies the payload about four times (stream, toByteArray, list growth, trim);
 * the optimized one once, and {@code floor} (beyond the write-up) encodes key and value straight
 * into the packet, so that the packet and its ByteBuffer are all it allocates (serialization's
 * own objects aside). Because the old encoder stores the encoded bytes back into the message,
 * every operation first puts the original key and value back (two field writes, done for every
 * variant) so each call encodes the real payload type.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar EncoderPayload -prof gc}
 */
@State(Scope.Thread)
@Fork(jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED") // Ignite 2.17.0 reads Buffer.address
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EncoderPayloadBenchmark {

    static final String KEY = "key:42";
    static final byte GET = 0x00;

    @Param({"old", "optimized", "floor", "upstream"})
    EncoderVariant variant;

    @Param({"STR_64", "STR_1K", "BYTES_8K", "OBJ_MAP"})
    Payloads payload;

    private Object value;
    private MemcacheResponse response;

    @Setup
    public void setUp() {
        value = payload.create(42);
        EncoderVariant.requireSamePackets(variant, KEY, value, GET);
        response = new MemcacheResponse(KEY, value, GET, (short) 0, 7);
    }

    @Benchmark
    public ByteBuffer encode() {
        response.key(KEY);
        response.value(value);
        return variant.encode(response);
    }
}
