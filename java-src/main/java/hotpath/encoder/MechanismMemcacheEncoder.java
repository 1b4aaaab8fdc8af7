package hotpath.encoder;

import static hotpath.encoder.Memcache.*;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * The old encoder with any set of IGNITE-28847's mechanisms applied ({@link EncoderMechanism}):
 * the empty set performs {@link OldMemcacheEncoder}'s allocations and copies, the full set
 * {@link OptimizedMemcacheEncoder}'s, and each mechanism alone removes only its own work. Every
 * set encodes the same packet.
 */
public final class MechanismMemcacheEncoder {

    private final boolean directBytes;
    private final boolean exactSize;
    private final boolean noMutation;

    public MechanismMemcacheEncoder(Set<EncoderMechanism> applied) {
        directBytes = applied.contains(EncoderMechanism.DIRECT_BYTES);
        exactSize = applied.contains(EncoderMechanism.EXACT_SIZE);
        noMutation = applied.contains(EncoderMechanism.NO_MUTATION);
    }

    /** The encoder of a variant name: {@code old}, {@code old+exact-size}, {@code optimized-no-mutation}, ... */
    public static MechanismMemcacheEncoder of(String variant) {
        return new MechanismMemcacheEncoder(EncoderMechanism.parse(variant));
    }

    public ByteBuffer encodeMemcache(MemcacheResponse resp) {
        int keyLen = 0;
        short keyFlags = 0;
        byte[] keyBytes = null;
        if (resp.key() != null) {
            if (directBytes) {
                OptimizedMemcacheEncoder.Encoded key = OptimizedMemcacheEncoder.encodeObj(resp.key());
                keyFlags = key.flags();
                keyBytes = key.bytes();
            } else {
                ByteArrayOutputStream os = new ByteArrayOutputStream();
                keyFlags = OldMemcacheEncoder.encodeObj(resp.key(), os);
                keyBytes = os.toByteArray();
            }
            keyLen = keyBytes.length;
            if (!noMutation) {
                resp.key(keyBytes);
            }
        }

        int dataLen = 0;
        short valFlags = 0;
        byte[] dataBytes = null;
        if (resp.value() != null) {
            if (directBytes) {
                OptimizedMemcacheEncoder.Encoded val = OptimizedMemcacheEncoder.encodeObj(resp.value());
                valFlags = val.flags();
                dataBytes = val.bytes();
            } else {
                ByteArrayOutputStream os = new ByteArrayOutputStream();
                valFlags = OldMemcacheEncoder.encodeObj(resp.value(), os);
                dataBytes = os.toByteArray();
            }
            dataLen = dataBytes.length;
            if (!noMutation) {
                resp.value(dataBytes);
            }
        }

        int flagsLen = resp.addsFlags() ? FLAGS_LEN : 0;

        // Exact: never grows, entireArray() is the list's own array. Else old's list, from the header's 24.
        ByteArrayList res = new ByteArrayList(exactSize ? HDR_LEN + flagsLen + keyLen + dataLen : HDR_LEN);
        res.add(RESPONSE_MAGIC);
        res.add(resp.opcode());
        res.addShort((short) keyLen);
        res.add((byte) flagsLen);
        res.add((byte) 0);
        res.addShort(resp.status());
        res.addInt(flagsLen + keyLen + dataLen);
        res.addInt(resp.opaque());
        res.addLong(0);
        if (flagsLen > 0) {
            res.addShort(keyFlags);
            res.addShort(valFlags);
        }
        if (keyBytes != null) {
            res.add(keyBytes);
        }
        if (dataBytes != null) {
            res.add(dataBytes);
        }
        return ByteBuffer.wrap(res.entireArray());
    }
}
