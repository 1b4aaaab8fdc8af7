package hotpath.encoder;

import static hotpath.encoder.Memcache.*;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Date;

/**
 * The encoder before the change: key and value each go through a new ByteArrayOutputStream
 * (32 B, growing), are copied out with {@code toByteArray()} and stored back into the message;
 * the packet list starts at the 24-byte header and grows by re-copying; the result is a trim
 * copy unless the list happens to be exactly full. About four copies of the payload.
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

    /** Writes the object's bytes into {@code out} and returns its flags. */
    static short encodeObj(Object obj, ByteArrayOutputStream out) {
        if (obj instanceof String s) {
            out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            return 0;
        }
        if (obj instanceof Boolean b) {
            out.write(b ? '1' : '0');
            return BOOLEAN;
        }
        if (obj instanceof Integer i) {
            writeBigEndian(out, i, 4);
            return INT;
        }
        if (obj instanceof Long l) {
            writeBigEndian(out, l, 8);
            return LONG;
        }
        if (obj instanceof Date d) {
            writeBigEndian(out, d.getTime(), 8);
            return DATE;
        }
        if (obj instanceof Byte b) {
            out.write(b);
            return BYTE;
        }
        if (obj instanceof Float f) {
            writeBigEndian(out, Float.floatToIntBits(f), 4);
            return FLOAT;
        }
        if (obj instanceof Double d) {
            writeBigEndian(out, Double.doubleToLongBits(d), 8);
            return DOUBLE;
        }
        if (obj instanceof byte[] arr) {
            out.writeBytes(arr);
            return BYTE_ARR;
        }
        try (ObjectOutputStream oos = new ObjectOutputStream(out)) {
            oos.writeObject(obj);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return SERIALIZED;
    }

    private static void writeBigEndian(ByteArrayOutputStream out, long v, int bytes) {
        for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
            out.write((int) (v >>> shift));
        }
    }
}
