package hotpath.encoder;

import static hotpath.encoder.Memcache.*;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Date;

import hotpath.utf8.Utf8;

/**
 * Beyond the optimized encoder: key and value are sized first and then encoded straight into
 * the one exactly sized packet. A String is UTF-8-encoded into the packet (no getBytes array),
 * fixed-width values are written in place (no small arrays), a byte[] is copied once, and an
 * object to serialize goes into a per-thread scratch stream kept at its largest size, from
 * which it is copied once (no 512 B start, growth or trim copy per call). The message is not
 * touched.
 *
 * <p>Why: the API returns one ByteBuffer over the whole packet, so the packet array and its
 * ByteBuffer are all a response must allocate; the optimized encoder still allocates the
 * encoded key and value besides (see data/floors/encoder.md for the price).
 */
public final class FloorMemcacheEncoder {

    /** A ByteArrayOutputStream whose array is read in place and which is reused per thread. */
    static final class Scratch extends ByteArrayOutputStream {
        Scratch() {
            super(512);
        }

        byte[] array() {
            return buf;
        }
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    public ByteBuffer encodeMemcache(MemcacheResponse resp) {
        Object key = resp.key();
        Object val = resp.value();
        // Objects without a fixed encoding are serialized first, key then value, into the scratch.
        Scratch scratch = null;
        // A String's ASCII prefix is found once, for sizing and for encoding.
        int keyAscii = key instanceof String ks ? Utf8.asciiPrefix(ks) : 0;
        int valAscii = val instanceof String vs ? Utf8.asciiPrefix(vs) : 0;
        int keyLen = key == null ? 0 : encodedLength(key, keyAscii);
        int valLen = val == null ? 0 : encodedLength(val, valAscii);
        if (keyLen < 0 || valLen < 0) {
            scratch = SCRATCH.get();
            scratch.reset();
            if (keyLen < 0) {
                keyLen = serialize(key, scratch);
            }
            if (valLen < 0) {
                valLen = serialize(val, scratch);
            }
        }
        int flagsLen = resp.addsFlags() ? FLAGS_LEN : 0;
        int bodyLen = flagsLen + keyLen + valLen;

        byte[] packet = new byte[HDR_LEN + bodyLen];
        packet[0] = RESPONSE_MAGIC;
        packet[1] = resp.opcode();
        putShort(packet, 2, (short) keyLen);
        packet[4] = (byte) flagsLen;
        packet[5] = 0;
        putShort(packet, 6, resp.status());
        putInt(packet, 8, bodyLen);
        putInt(packet, 12, resp.opaque());
        // bytes 16..23: CAS = 0, as allocated
        int off = HDR_LEN;
        if (flagsLen > 0) {
            putShort(packet, off, key == null ? 0 : flags(key));
            putShort(packet, off + 2, val == null ? 0 : flags(val));
            off += FLAGS_LEN;
        }
        int scratchOff = 0;
        if (key != null) {
            scratchOff = encode(key, keyAscii, keyLen, packet, off, scratch, scratchOff);
            off += keyLen;
        }
        if (val != null) {
            encode(val, valAscii, valLen, packet, off, scratch, scratchOff);
        }
        return ByteBuffer.wrap(packet);
    }

    /** The encoded length of a fixed-encoding object, or -1 for one that must be serialized. */
    static int encodedLength(Object obj, int asciiPrefix) {
        if (obj instanceof String s) {
            return Utf8.length(s, asciiPrefix);
        }
        if (obj instanceof byte[] arr) {
            return arr.length;
        }
        if (obj instanceof Boolean || obj instanceof Byte) {
            return 1;
        }
        if (obj instanceof Integer || obj instanceof Float) {
            return 4;
        }
        if (obj instanceof Long || obj instanceof Date || obj instanceof Double) {
            return 8;
        }
        return -1;
    }

    /** The flags of {@code encodeObj}'s table. */
    static short flags(Object obj) {
        if (obj instanceof String) {
            return 0;
        }
        if (obj instanceof Boolean) {
            return BOOLEAN;
        }
        if (obj instanceof Integer) {
            return INT;
        }
        if (obj instanceof Long) {
            return LONG;
        }
        if (obj instanceof Date) {
            return DATE;
        }
        if (obj instanceof Byte) {
            return BYTE;
        }
        if (obj instanceof Float) {
            return FLOAT;
        }
        if (obj instanceof Double) {
            return DOUBLE;
        }
        if (obj instanceof byte[]) {
            return BYTE_ARR;
        }
        return SERIALIZED;
    }

    /**
     * Writes {@code obj}'s {@code len} bytes at {@code dst[off]}; a serialized object is copied
     * from {@code scratch} at {@code scratchOff}. Returns the scratch offset after it.
     */
    private static int encode(Object obj, int asciiPrefix, int len, byte[] dst, int off, Scratch scratch,
                              int scratchOff) {
        if (obj instanceof String s) {
            Utf8.encode(s, asciiPrefix, dst, off);
        } else if (obj instanceof byte[] arr) {
            System.arraycopy(arr, 0, dst, off, len);
        } else if (obj instanceof Boolean b) {
            dst[off] = (byte) (b ? '1' : '0');
        } else if (obj instanceof Byte b) {
            dst[off] = b;
        } else if (obj instanceof Integer i) {
            putInt(dst, off, i);
        } else if (obj instanceof Float f) {
            putInt(dst, off, Float.floatToIntBits(f));
        } else if (obj instanceof Long l) {
            putLong(dst, off, l);
        } else if (obj instanceof Date d) {
            putLong(dst, off, d.getTime());
        } else if (obj instanceof Double d) {
            putLong(dst, off, Double.doubleToLongBits(d));
        } else {
            System.arraycopy(scratch.array(), scratchOff, dst, off, len);
            return scratchOff + len;
        }
        return scratchOff;
    }

    /** JDK serialization appended to the scratch; returns the number of bytes it took. */
    private static int serialize(Object obj, Scratch scratch) {
        int start = scratch.size();
        try (ObjectOutputStream oos = new ObjectOutputStream(scratch)) {
            oos.writeObject(obj);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return scratch.size() - start;
    }

    private static void putShort(byte[] b, int off, short v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }

    private static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    private static void putLong(byte[] b, int off, long v) {
        putInt(b, off, (int) (v >>> 32));
        putInt(b, off + 4, (int) v);
    }
}
