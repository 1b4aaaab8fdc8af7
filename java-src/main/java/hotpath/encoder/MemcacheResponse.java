package hotpath.encoder;

/**
 * A memcache REST response: key and value are objects of any supported type until encoded.
 * The old encoder writes the encoded bytes back into {@code key} and {@code value} (the
 * write-up's side effect); the optimized one leaves the message as it was.
 */
public final class MemcacheResponse {

    private Object key;
    private Object value;
    private final byte opcode;
    private final short status;
    private final int opaque;

    public MemcacheResponse(Object key, Object value, byte opcode, short status, int opaque) {
        this.key = key;
        this.value = value;
        this.opcode = opcode;
        this.status = status;
        this.opaque = opaque;
    }

    public Object key() {
        return key;
    }

    public void key(Object key) {
        this.key = key;
    }

    public Object value() {
        return value;
    }

    public void value(Object value) {
        this.value = value;
    }

    public byte opcode() {
        return opcode;
    }

    public short status() {
        return status;
    }

    public int opaque() {
        return opaque;
    }

    /** Opcodes whose responses carry the 4-byte extras (key flags, value flags). */
    public boolean addsFlags() {
        return opcode == 0x00 || opcode == 0x09 || opcode == 0x0C || opcode == 0x0D;
    }
}
