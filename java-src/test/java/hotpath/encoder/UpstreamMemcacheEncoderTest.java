package hotpath.encoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import hotpath.fidelity.HeapPerCall;
import hotpath.fidelity.HeapProbe;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The released encoder (Ignite 2.17.0) beside our old model: same packets, same heap bytes. */
class UpstreamMemcacheEncoderTest {

    private static final byte[] OPCODES = {0x00, 0x09, 0x0C, 0x0D, 0x01, 0x05};

    static Stream<Long> seeds() {
        return Stream.of(1L, 2L);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void releaseEncodesSamePacketsAsOldModelForEveryTypeSizeKeyAndOpcode(long seed) {
        Random rnd = new Random(seed);
        UpstreamMemcacheEncoder upstream = new UpstreamMemcacheEncoder();
        int checked = 0;
        for (Object key : MemcacheEncoderEquivalenceTest.keys(rnd)) {
            for (Object value : MemcacheEncoderEquivalenceTest.values(rnd)) {
                for (byte opcode : OPCODES) {
                    byte[] model = new OldMemcacheEncoder()
                            .encodeMemcache(new MemcacheResponse(key, value, opcode, (short) 1, 99)).array();
                    byte[] release = upstream
                            .encodeMemcache(new MemcacheResponse(key, value, opcode, (short) 1, 99)).array();
                    assertArrayEquals(model, release, () -> "key " + key + ", value "
                            + (value == null ? null : value.getClass()) + ", opcode " + opcode);
                    checked++;
                }
            }
        }
        assertEquals(MemcacheEncoderEquivalenceTest.keys(new Random(0)).size()
                * MemcacheEncoderEquivalenceTest.values(new Random(0)).size() * OPCODES.length, checked);
    }

    /** The write-up's payloads and the fixed-width values the release encodes through a temporary array. */
    static Stream<String> payloads() {
        return Stream.of("STR_64", "STR_1K", "BYTES_8K", "OBJ_MAP", "Integer", "Long", "Boolean");
    }

    static Object payload(String name) {
        return switch (name) {
            case "Integer" -> 123_456;
            case "Long" -> 1L << 40;
            case "Boolean" -> true;
            default -> Payloads.valueOf(name).create(42);
        };
    }

    /**
     * In the interpreter, where nothing is scalar-replaced, the old model performs exactly the
     * release's allocations: the temporary arrays of fixed-width values, the marshaller's stream.
     * Compiled, what C2 removes of the small temporaries varies from JVM to JVM by some 50 B on
     * both sides (and more on a busy machine, where C2 compiles late): the compiled figures are
     * compared where they are measured, in the benchmarks' upstream and old rows.
     */
    @ParameterizedTest
    @MethodSource("payloads")
    void oldModelPerformsTheReleasesAllocations(String payload) {
        double release = HeapProbe.interpreted(ReleaseEncode.class, payload, 2_000);
        double model = HeapProbe.interpreted(ModelEncode.class, payload, 2_000);
        assertTrue(HeapPerCall.agree(release, model), HeapPerCall.describe(payload, release, model));
    }

    /** The benchmark's operation on the release: key and value set, then encoded. */
    public static final class ReleaseEncode implements Function<String, Supplier<?>> {
        @Override
        public Supplier<?> apply(String payload) {
            Object value = payload(payload);
            MemcacheResponse resp = new MemcacheResponse(KEY, value, (byte) 0x00, (short) 0, 7);
            UpstreamMemcacheEncoder release = new UpstreamMemcacheEncoder();
            return () -> {
                resp.key(KEY);
                resp.value(value);
                return release.encodeMemcache(resp);
            };
        }
    }

    /** The benchmark's operation on our old model. */
    public static final class ModelEncode implements Function<String, Supplier<?>> {
        @Override
        public Supplier<?> apply(String payload) {
            Object value = payload(payload);
            MemcacheResponse resp = new MemcacheResponse(KEY, value, (byte) 0x00, (short) 0, 7);
            OldMemcacheEncoder model = new OldMemcacheEncoder();
            return () -> {
                resp.key(KEY);
                resp.value(value);
                return model.encodeMemcache(resp);
            };
        }
    }

    private static final String KEY = "key:42";
}
