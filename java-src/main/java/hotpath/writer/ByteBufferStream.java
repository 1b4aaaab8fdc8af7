package hotpath.writer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.UUID;

import hotpath.utf8.Utf8;

/**
 * The wire encoding of one nesting level, and the progress of a field that did not fit.
 *
 * <p>Fixed-width values are little-endian; int and long are written as value + 1 in unsigned
 * base-128 (low 7 bits first, high bit = more), and need 5 and 10 free bytes or nothing is
 * written. Arrays, strings and maps are resumable: a buffer swap continues where it stopped.
 *
 * <p>Fixed-width values and varints are stored as the released stream stores them: the position
 * read once, the bytes written straight into the buffer's memory ({@link RawBytes}), the
 * position set once, rather than a checked ByteBuffer put per byte.
 */
public final class ByteBufferStream {

    // Strings UTF-8 encoded straight into a heap buffer when they fit (the floor writer's streams).
    private final boolean stringsInPlace;
    private ByteBuffer buf;
    // Where the buffer's bytes are: its array (null when direct) and index 0's offset in it.
    private byte[] heapArr;
    private long baseOff;
    private boolean lastFinished;

    // Progress of a field that spans buffers.
    private int arrOff = -1;
    private int uuidOff = -1;
    private final byte[] uuidBytes = new byte[16];
    private byte[] curStrBytes;
    private Iterator<? extends Map.Entry<?, ?>> mapIt;
    private Map.Entry<?, ?> mapCur;
    private boolean keyDone;

    /** The serialized-and-deflated form of a compressed field being written, kept across swaps. */
    Message pendingCompressed;

    public ByteBufferStream() {
        this(false);
    }

    /**
     * {@code stringsInPlace}: a string that fits whole in a heap buffer is UTF-8 encoded straight
     * into its array, with no byte[] per string; one that does not fit is written as always (a byte[],
     * resumable across buffers). Same bytes either way.
     */
    public ByteBufferStream(boolean stringsInPlace) {
        this.stringsInPlace = stringsInPlace;
    }

    public void setBuffer(ByteBuffer buf) {
        if (this.buf != buf) {
            this.buf = buf;
            heapArr = RawBytes.base(buf);
            baseOff = RawBytes.offset(buf);
        }
    }

    public boolean lastFinished() {
        return lastFinished;
    }

    void reset() {
        lastFinished = false;
        arrOff = -1;
        uuidOff = -1;
        curStrBytes = null;
        mapIt = null;
        mapCur = null;
        keyDone = false;
        pendingCompressed = null;
    }

    public void writeByte(byte val) {
        lastFinished = buf.remaining() >= 1;
        if (lastFinished) {
            int pos = buf.position();
            RawBytes.putByte(heapArr, baseOff + pos, val);
            buf.position(pos + 1);
        }
    }

    public void writeBoolean(boolean val) {
        writeByte(val ? (byte) 1 : (byte) 0);
    }

    public void writeShort(short val) {
        lastFinished = buf.remaining() >= 2;
        if (lastFinished) {
            int pos = buf.position();
            RawBytes.putByte(heapArr, baseOff + pos, (byte) val);
            RawBytes.putByte(heapArr, baseOff + pos + 1, (byte) (val >>> 8));
            buf.position(pos + 2);
        }
    }

    public void writeInt(int val) {
        lastFinished = buf.remaining() >= 5;
        if (lastFinished) {
            int v = val + 1;
            int pos = buf.position();
            while ((v & ~0x7F) != 0) {
                RawBytes.putByte(heapArr, baseOff + pos++, (byte) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            RawBytes.putByte(heapArr, baseOff + pos++, (byte) v);
            buf.position(pos);
        }
    }

    public void writeLong(long val) {
        lastFinished = buf.remaining() >= 10;
        if (lastFinished) {
            long v = val + 1;
            int pos = buf.position();
            while ((v & ~0x7FL) != 0) {
                RawBytes.putByte(heapArr, baseOff + pos++, (byte) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            RawBytes.putByte(heapArr, baseOff + pos++, (byte) v);
            buf.position(pos);
        }
    }

    /** A null flag byte, then 16 little-endian bytes (msb, lsb); resumable like an array. */
    public void writeUuid(UUID val) {
        if (uuidOff == -1 && val != null && buf.remaining() >= 17) {
            int pos = buf.position();
            RawBytes.putByte(heapArr, baseOff + pos, (byte) 0);
            RawBytes.putLongLE(heapArr, baseOff + pos + 1, val.getMostSignificantBits());
            RawBytes.putLongLE(heapArr, baseOff + pos + 9, val.getLeastSignificantBits());
            buf.position(pos + 17);
            lastFinished = true;
            return;
        }
        if (uuidOff == -1) {
            writeByte(val == null ? (byte) 1 : (byte) 0);
            if (!lastFinished || val == null) {
                return;
            }
            putLongLe(uuidBytes, 0, val.getMostSignificantBits());
            putLongLe(uuidBytes, 8, val.getLeastSignificantBits());
            uuidOff = 0;
        }
        int n = Math.min(buf.remaining(), 16 - uuidOff);
        buf.put(uuidBytes, uuidOff, n);
        uuidOff += n;
        lastFinished = uuidOff == 16;
        if (lastFinished) {
            uuidOff = -1;
        }
    }

    private static void putLongLe(byte[] dst, int off, long v) {
        for (int i = 0; i < 8; i++) {
            dst[off + i] = (byte) (v >>> (8 * i));
        }
    }

    public void writeByteArray(byte[] val) {
        if (val == null) {
            writeInt(-1);
            return;
        }
        if (arrOff == -1) {
            writeInt(val.length);
            if (!lastFinished) {
                return;
            }
            arrOff = 0;
        }
        int n = Math.min(buf.remaining(), val.length - arrOff);
        buf.put(val, arrOff, n);
        arrOff += n;
        lastFinished = arrOff == val.length;
        if (lastFinished) {
            arrOff = -1;
        }
    }

    /** A range of an array, written as {@link #writeByteArray(byte[])} writes a copy of it. */
    public void writeByteArray(byte[] val, int off, int len) {
        if (arrOff == -1) {
            writeInt(len);
            if (!lastFinished) {
                return;
            }
            arrOff = 0;
        }
        int n = Math.min(buf.remaining(), len - arrOff);
        buf.put(val, off + arrOff, n);
        arrOff += n;
        lastFinished = arrOff == len;
        if (lastFinished) {
            arrOff = -1;
        }
    }

    public void writeString(String val) {
        if (val == null) {
            writeByteArray(null);
            return;
        }
        if (curStrBytes == null && arrOff == -1 && stringsInPlace && writeStringInPlace(val)) {
            return;
        }
        if (curStrBytes == null) {
            curStrBytes = val.getBytes(StandardCharsets.UTF_8);
        }
        writeByteArray(curStrBytes);
        if (lastFinished) {
            curStrBytes = null;
        }
    }

    /**
     * Writes varint(n + 1) and the n UTF-8 bytes of {@code val} if the buffer is on the heap (the
     * scratch, where compressed fields' strings go) and they fit; else nothing.
     */
    private boolean writeStringInPlace(String val) {
        if (heapArr == null) {
            return false;
        }
        int ascii = Utf8.asciiPrefix(val);
        int n = Utf8.length(val, ascii);
        if (buf.remaining() < 5 + n) {
            return false;
        }
        writeInt(n);
        int pos = buf.position();
        buf.position(Utf8.encode(val, ascii, heapArr, buf.arrayOffset() + pos) - buf.arrayOffset());
        lastFinished = true;
        return true;
    }

    /** A nested message through the writer's next state level; null is the header 00 80. */
    public void writeMessage(Message msg, MessageWriter writer) {
        if (msg == null) {
            writeShort(Short.MIN_VALUE);
            return;
        }
        writer.beforeNestedWrite();
        boolean finished = msg.writeTo(writer);
        writer.afterNestedWrite(finished);
        lastFinished = finished;
    }

    public void writeMap(Map<?, ?> map, ItemType keyType, ItemType valType, MessageWriter writer) {
        if (map == null) {
            writeInt(-1);
            return;
        }
        if (mapIt == null) {
            writeInt(map.size());
            if (!lastFinished) {
                return;
            }
            mapIt = map.entrySet().iterator();
        }
        while (true) {
            if (mapCur == null) {
                if (!mapIt.hasNext()) {
                    break;
                }
                mapCur = mapIt.next();
            }
            if (!keyDone) {
                writeItem(keyType, mapCur.getKey(), writer);
                if (!lastFinished) {
                    return;
                }
                keyDone = true;
            }
            writeItem(valType, mapCur.getValue(), writer);
            if (!lastFinished) {
                return;
            }
            mapCur = null;
            keyDone = false;
        }
        mapIt = null;
        lastFinished = true;
    }

    private void writeItem(ItemType type, Object item, MessageWriter writer) {
        switch (type) {
            case INT -> writeInt((Integer) item);
            case LONG -> writeLong((Long) item);
            case STRING -> writeString((String) item);
            case BYTE_ARR -> writeByteArray((byte[]) item);
            case UUID -> writeUuid((UUID) item);
            case MSG -> writeMessage((Message) item, writer);
            default -> throw new IllegalArgumentException("unknown item type " + type);
        }
    }
}
