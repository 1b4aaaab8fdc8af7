package hotpath.writer;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Stores into a buffer's memory without going through the ByteBuffer per byte, as the
 * released writer's stream does (Ignite's {@code DirectByteBufferStream} writes through
 * {@code sun.misc.Unsafe} at the buffer's address or array, and moves the position once per
 * value). A ByteBuffer put costs a bounds check, a position update and, for a direct buffer, a
 * scope check per byte; a varint of ten bytes pays them ten times.
 *
 * <p>The stores are {@code sun.misc.Unsafe}'s, reached through method handles (constant, so C2
 * inlines them like direct calls). Callers check bounds themselves: every write is preceded by
 * a {@code remaining()} check, as in the release.
 */
final class RawBytes {

    private static final MethodHandle PUT_BYTE;
    private static final MethodHandle PUT_LONG;
    private static final MethodHandle GET_LONG;
    private static final long ADDRESS;
    static final long BYTE_ARRAY_BASE;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    static {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            Object unsafe = theUnsafe.get(null);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            PUT_BYTE = lookup.findVirtual(unsafeClass, "putByte",
                    MethodType.methodType(void.class, Object.class, long.class, byte.class)).bindTo(unsafe);
            PUT_LONG = lookup.findVirtual(unsafeClass, "putLong",
                    MethodType.methodType(void.class, Object.class, long.class, long.class)).bindTo(unsafe);
            GET_LONG = lookup.findVirtual(unsafeClass, "getLong",
                    MethodType.methodType(long.class, Object.class, long.class)).bindTo(unsafe);
            ADDRESS = (long) lookup.findVirtual(unsafeClass, "objectFieldOffset",
                    MethodType.methodType(long.class, Field.class)).invoke(unsafe, Buffer.class.getDeclaredField("address"));
            BYTE_ARRAY_BASE = (int) lookup.findVirtual(unsafeClass, "arrayBaseOffset",
                    MethodType.methodType(int.class, Class.class)).invoke(unsafe, byte[].class);
        } catch (Throwable e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private RawBytes() {
    }

    /** The array a heap buffer writes to, or null for a direct buffer. */
    static byte[] base(ByteBuffer buf) {
        return buf.isDirect() ? null : buf.array();
    }

    /** The offset of the buffer's index 0 from {@link #base}: its address, or the array's. */
    static long offset(ByteBuffer buf) {
        try {
            return buf.isDirect() ? (long) GET_LONG.invokeExact((Object) buf, ADDRESS)
                    : BYTE_ARRAY_BASE + buf.arrayOffset();
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    static void putByte(byte[] base, long offset, byte b) {
        try {
            PUT_BYTE.invokeExact((Object) base, offset, b);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Eight bytes, little-endian. */
    static void putLongLE(byte[] base, long offset, long v) {
        try {
            PUT_LONG.invokeExact((Object) base, offset, LITTLE_ENDIAN ? v : Long.reverseBytes(v));
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
