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
        assertEquals(6 * MemcacheEncoderEquivalenceTest.values(new Random(0)).size() * OPCODES.length, checked);
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
     * Measured in fresh JVMs, one per side, as benchmark forks measure it: after the other tests
     * have run, C2's escape analysis keeps different temporaries in one encoder than in the other.
     */
    @ParameterizedTest
    @MethodSource("payloads")
    void oldModelAllocatesWhatTheReleaseAllocatesPerCall(String payload) {
        int calls = payload.equals("OBJ_MAP") ? 20_000 : 100_000;
        double release = HeapProbe.inFreshJvm(ReleaseEncode.class, payload, calls, calls);
        double model = HeapProbe.inFreshJvm(ModelEncode.class, payload, calls, calls);
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
