package hotpath.encoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import hotpath.fidelity.HeapPerCall;
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

    static Stream<Object> payloads() {
        Random rnd = new Random(9);
        return Stream.concat(Stream.of(Payloads.values()).map(p -> p.create(42)),
                List.<Object>of(rnd.nextInt(), rnd.nextLong(), true, 3.5d).stream());
    }

    @ParameterizedTest
    @MethodSource("payloads")
    void oldModelAllocatesWhatTheReleaseAllocatesPerCall(Object value) {
        String key = "key:42";
        MemcacheResponse resp = new MemcacheResponse(key, value, (byte) 0x00, (short) 0, 7);
        OldMemcacheEncoder model = new OldMemcacheEncoder();
        UpstreamMemcacheEncoder release = new UpstreamMemcacheEncoder();
        int calls = value instanceof java.util.Map ? 20_000 : 100_000;
        double[] bytes = HeapPerCall.compare(() -> {
            resp.key(key);
            resp.value(value);
            return release.encodeMemcache(resp);
        }, () -> {
            resp.key(key);
            resp.value(value);
            return model.encodeMemcache(resp);
        }, calls, calls);
        double releaseBytes = bytes[0];
        double modelBytes = bytes[1];
        assertTrue(HeapPerCall.agree(releaseBytes, modelBytes),
                HeapPerCall.describe(value.getClass().getSimpleName(), releaseBytes, modelBytes));
    }
}
