package hotpath.encoder;

import static hotpath.encoder.Memcache.*;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Date;

/**
 * The encoder after the change: key and value are encoded straight to their bytes (a byte[]
 * value is used as it is), the exact packet size is computed first, the list is allocated at
 * that size and never grows, and {@code entireArray()} returns it without a copy. The message
 * is not touched. One copy of the payload: into the packet.
 */
public final class OptimizedMemcacheEncoder {

    /** An encoded key or value: its bytes and its flags. */
    public record Encoded(byte[] bytes, short flags) {
    }

    public ByteBuffer encodeMemcache(MemcacheResponse resp) {
        Encoded key = resp.key() == null ? null : encodeObj(resp.key());
        Encoded val = resp.value() == null ? null : encodeObj(resp.value());
        int keyLen = key == null ? 0 : key.bytes().length;
        int dataLen = val == null ? 0 : val.bytes().length;
        int flagsLen = resp.addsFlags() ? FLAGS_LEN : 0;

        ByteArrayList res = new ByteArrayList(HDR_LEN + flagsLen + keyLen + dataLen);
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
            res.addShort(key == null ? 0 : key.flags());
            res.addShort(val == null ? 0 : val.flags());
        }
        if (key != null) {
            res.add(key.bytes());
        }
        if (val != null) {
            res.add(val.bytes());
        }
        return ByteBuffer.wrap(res.entireArray());
    }

    static Encoded encodeObj(Object obj) {
        if (obj instanceof String s) {
            return new Encoded(s.getBytes(StandardCharsets.UTF_8), (short) 0);
        }
        if (obj instanceof Boolean b) {
            return new Encoded(new byte[] {(byte) (b ? '1' : '0')}, BOOLEAN);
        }
        if (obj instanceof Integer i) {
            return new Encoded(bigEndian(i, 4), INT);
        }
        if (obj instanceof Long l) {
            return new Encoded(bigEndian(l, 8), LONG);
        }
        if (obj instanceof Date d) {
            return new Encoded(bigEndian(d.getTime(), 8), DATE);
        }
        if (obj instanceof Byte b) {
            return new Encoded(new byte[] {b}, BYTE);
        }
        if (obj instanceof Float f) {
            return new Encoded(bigEndian(Float.floatToIntBits(f), 4), FLOAT);
        }
        if (obj instanceof Double d) {
            return new Encoded(bigEndian(Double.doubleToLongBits(d), 8), DOUBLE);
        }
        if (obj instanceof byte[] arr) {
            return new Encoded(arr, BYTE_ARR);
        }
        return new Encoded(marshal(obj), SERIALIZED);
    }

    /** JDK serialization into a 512-byte growing buffer (through the marshaller's stream), then a trim copy. */
    static byte[] marshal(Object obj) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        OldMemcacheEncoder.serialize(obj, out);
        return out.toByteArray();
    }

    private static byte[] bigEndian(long v, int bytes) {
        return OldMemcacheEncoder.bigEndian(v, bytes);
    }
}
