package hotpath.encoder;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** The implementations under test, selected by the benchmarks' {@code variant} @Param. */
public enum EncoderVariant {
    old {
        private final OldMemcacheEncoder encoder = new OldMemcacheEncoder();

        @Override
        public ByteBuffer encode(MemcacheResponse resp) {
            return encoder.encodeMemcache(resp);
        }
    },
    optimized {
        private final OptimizedMemcacheEncoder encoder = new OptimizedMemcacheEncoder();

        @Override
        public ByteBuffer encode(MemcacheResponse resp) {
            return encoder.encodeMemcache(resp);
        }
    },
    /** Beyond the write-up: key and value encoded straight into the exact packet (issue 17). */
    floor {
        private final FloorMemcacheEncoder encoder = new FloorMemcacheEncoder();

        @Override
        public ByteBuffer encode(MemcacheResponse resp) {
            return encoder.encodeMemcache(resp);
        }
    };

    public abstract ByteBuffer encode(MemcacheResponse resp);

    /** Fails the trial unless every variant encodes the same packet as old. */
    public static void requireSamePackets(Object key, Object value, byte opcode) {
        byte[] expected = old.encode(new MemcacheResponse(key, value, opcode, (short) 0, 7)).array();
        for (EncoderVariant v : values()) {
            byte[] actual = v.encode(new MemcacheResponse(key, value, opcode, (short) 0, 7)).array();
            if (!Arrays.equals(expected, actual)) {
                throw new IllegalStateException(v + " encodes a different packet than old ("
                        + actual.length + " vs " + expected.length + " bytes); no timing is valid");
            }
        }
    }
}
