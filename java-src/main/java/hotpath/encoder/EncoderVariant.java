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
    },
    /** The released old code, Ignite 2.17.0: created on first use, so other forks never load Ignite. */
    upstream {
        private UpstreamMemcacheEncoder encoder;

        @Override
        public ByteBuffer encode(MemcacheResponse resp) {
            if (encoder == null) {
                encoder = new UpstreamMemcacheEncoder();
            }
            return encoder.encodeMemcache(resp);
        }
    };

    public abstract ByteBuffer encode(MemcacheResponse resp);

    /** Fails the trial unless every model encodes the same packet as old. */
    public static void requireSamePackets(Object key, Object value, byte opcode) {
        requireSamePackets(old, key, value, opcode);
    }

    /**
     * Fails the trial unless every model encodes the same packet as old, and, in the release's
     * own forks, the release too (loading Ignite takes a second, so other forks skip it).
     */
    public static void requireSamePackets(EncoderVariant variant, Object key, Object value, byte opcode) {
        byte[] expected = old.encode(new MemcacheResponse(key, value, opcode, (short) 0, 7)).array();
        for (EncoderVariant v : values()) {
            if (v == upstream && variant != upstream) {
                continue;
            }
            byte[] actual = v.encode(new MemcacheResponse(key, value, opcode, (short) 0, 7)).array();
            if (!Arrays.equals(expected, actual)) {
                throw new IllegalStateException(v + " encodes a different packet than old ("
                        + actual.length + " vs " + expected.length + " bytes); no timing is valid");
            }
        }
    }
}
