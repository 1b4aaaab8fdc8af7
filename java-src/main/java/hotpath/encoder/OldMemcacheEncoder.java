package hotpath.encoder;

import static hotpath.encoder.Memcache.*;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Date;

import hotpath.jdk.MarshallerOutputStream;

/**
 * The encoder before the change: key and value each go through a new ByteArrayOutputStream
 * (32 B, growing), are copied out with {@code toByteArray()} and stored back into the message;
 * the packet list starts at the 24-byte header and grows by re-copying; the result is a trim
 * copy unless the list happens to be exactly full. About four copies of the payload.
 * Fixed-width values pass through a temporary array of their width, as the release encodes them.
 */
public final class OldMemcacheEncoder {

    public ByteBuffer encodeMemcache(MemcacheResponse resp) {
        ByteArrayList res = new ByteArrayList(HDR_LEN);

        int keyLen = 0;
        short keyFlags = 0;
        byte[] keyBytes = null;
        if (resp.key() != null) {
            ByteArrayOutputStream os = new ByteArrayOutputStream();
            keyFlags = encodeObj(resp.key(), os);
            keyBytes = os.toByteArray();
            keyLen = keyBytes.length;
            resp.key(keyBytes);
        }

        int dataLen = 0;
        short valFlags = 0;
        byte[] dataBytes = null;
        if (resp.value() != null) {
            ByteArrayOutputStream os = new ByteArrayOutputStream();
            valFlags = encodeObj(resp.value(), os);
            dataBytes = os.toByteArray();
            dataLen = dataBytes.length;
            resp.value(dataBytes);
        }

        int flagsLen = resp.addsFlags() ? FLAGS_LEN : 0;

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

    /**
     * Writes the object's bytes into {@code out} and returns its flags. Fixed-width values are
     * first encoded into a temporary array of their width (a byte[1], byte[4] or byte[8]) and
     * then written; other objects are JDK-serialized into {@code out} through the marshaller's
     * forwarding stream.
     */
    static short encodeObj(Object obj, ByteArrayOutputStream out) {
        byte[] bytes;
        short flags;
        if (obj instanceof String s) {
            bytes = s.getBytes(StandardCharsets.UTF_8);
            flags = 0;
        } else if (obj instanceof Boolean b) {
            bytes = new byte[] {(byte) (b ? '1' : '0')};
            flags = BOOLEAN;
        } else if (obj instanceof Integer i) {
            bytes = bigEndian(i, 4);
            flags = INT;
        } else if (obj instanceof Long l) {
            bytes = bigEndian(l, 8);
            flags = LONG;
        } else if (obj instanceof Date d) {
            bytes = bigEndian(d.getTime(), 8);
            flags = DATE;
        } else if (obj instanceof Byte b) {
            bytes = new byte[] {b};
            flags = BYTE;
        } else if (obj instanceof Float f) {
            bytes = bigEndian(Float.floatToIntBits(f), 4);
            flags = FLOAT;
        } else if (obj instanceof Double d) {
            bytes = bigEndian(Double.doubleToLongBits(d), 8);
            flags = DOUBLE;
        } else if (obj instanceof byte[] arr) {
            bytes = arr;
            flags = BYTE_ARR;
        } else {
            serialize(obj, out);
            return SERIALIZED;
        }
        out.write(bytes, 0, bytes.length);
        return flags;
    }

    /** JDK serialization of {@code obj} into {@code out}, as the JDK marshaller streams it. */
    static void serialize(Object obj, OutputStream out) {
        try (ObjectOutputStream oos = new ObjectOutputStream(new MarshallerOutputStream(out))) {
            oos.writeObject(obj);
            oos.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] bigEndian(long v, int bytes) {
        byte[] out = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            out[i] = (byte) (v >>> (8 * (bytes - 1 - i)));
        }
        return out;
    }
}
