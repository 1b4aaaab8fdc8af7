package hotpath.encoder;

/** The memcache binary protocol's response constants and the value-type flags. */
public final class Memcache {

    public static final int HDR_LEN = 24;
    public static final byte RESPONSE_MAGIC = (byte) 0x81;
    public static final int FLAGS_LEN = 4;

    public static final short SERIALIZED = 1;
    public static final short BOOLEAN = 0x0100;
    public static final short INT = 0x0200;
    public static final short LONG = 0x0300;
    public static final short DATE = 0x0400;
    public static final short BYTE = 0x0500;
    public static final short FLOAT = 0x0600;
    public static final short DOUBLE = 0x0700;
    public static final short BYTE_ARR = 0x0800;

    private Memcache() {
    }
}
