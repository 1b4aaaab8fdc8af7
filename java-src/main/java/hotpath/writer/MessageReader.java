package hotpath.writer;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/** Decodes what the writers write, from complete bytes (compressed fields are inflated). */
public final class MessageReader {

    private final ByteBuffer buf;
    private final MessageFactory factory;

    public MessageReader(byte[] bytes, MessageFactory factory) {
        this.buf = ByteBuffer.wrap(bytes);
        this.factory = factory;
    }

    public boolean hasRemaining() {
        return buf.hasRemaining();
    }

    public byte readByte() {
        return buf.get();
    }

    public boolean readBoolean() {
        byte b = buf.get();
        if (b != 0 && b != 1) {
            throw new IllegalStateException("not a boolean: " + b);
        }
        return b == 1;
    }

    public short readShort() {
        return (short) ((buf.get() & 0xFF) | (buf.get() & 0xFF) << 8);
    }

    public int readInt() {
        return (int) readVarLong() - 1;
    }

    public long readLong() {
        return readVarLong() - 1;
    }

    private long readVarLong() {
        long v = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = buf.get();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
    }

    public UUID readUuid() {
        if (buf.get() == 1) {
            return null;
        }
        return new UUID(readLongLe(), readLongLe());
    }

    private long readLongLe() {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (long) (buf.get() & 0xFF) << (8 * i);
        }
        return v;
    }

    public byte[] readByteArray() {
        int len = readInt();
        if (len == -1) {
            return null;
        }
        byte[] out = new byte[len];
        buf.get(out);
        return out;
    }

    public String readString() {
        byte[] bytes = readByteArray();
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    public Message readMessage() {
        short type = readShort();
        if (type == Short.MIN_VALUE) {
            return null;
        }
        Message msg = factory.create(type);
        msg.readFrom(this);
        return msg;
    }

    public <K, V> Map<K, V> readMap(ItemType keyType, ItemType valType) {
        int size = readInt();
        if (size == -1) {
            return null;
        }
        Map<K, V> map = new LinkedHashMap<>();
        for (int i = 0; i < size; i++) {
            @SuppressWarnings("unchecked") K k = (K) readItem(keyType);
            @SuppressWarnings("unchecked") V v = (V) readItem(valType);
            map.put(k, v);
        }
        return map;
    }

    private Object readItem(ItemType type) {
        return switch (type) {
            case INT -> readInt();
            case LONG -> readLong();
            case STRING -> readString();
            case BYTE_ARR -> readByteArray();
            case UUID -> readUuid();
            case MSG -> readMessage();
        };
    }

    /** A compressed field: null, or a CompressedMessage whose inflated bytes are read by a nested reader. */
    public MessageReader readCompressed() {
        Message msg = readMessage();
        if (msg == null) {
            return null;
        }
        CompressedMessage cm = (CompressedMessage) msg;
        return new MessageReader(inflate(cm.compressed(), cm.dataSize()), factory);
    }

    public <K, V> Map<K, V> readCompressedMap(ItemType keyType, ItemType valType) {
        MessageReader inner = readCompressed();
        return inner == null ? null : inner.readMap(keyType, valType);
    }

    static byte[] inflate(byte[] compressed, int size) {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(compressed);
            ByteArrayOutputStream out = new ByteArrayOutputStream(size);
            byte[] chunk = new byte[4096];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalStateException("truncated DEFLATE stream");
                }
                out.write(chunk, 0, n);
            }
            byte[] result = out.toByteArray();
            if (result.length != size) {
                throw new IllegalStateException("inflated " + result.length + " bytes, expected " + size);
            }
            return result;
        } catch (DataFormatException e) {
            throw new IllegalStateException("corrupt DEFLATE stream", e);
        } finally {
            inflater.end();
        }
    }
}
