package hotpath.encoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Random;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * {@link EncoderVariant#requireSamePackets} over generated keys, values and opcodes: every value
 * type of the flag table (strings ASCII, multi-byte and with paired and unpaired surrogates, byte
 * arrays, every fixed-width type at its extremes including NaNs of any bit pattern, serialized
 * objects), sizes at 0, 1, the old encoder's 32-byte stream and the floor's 512-byte scratch and
 * its doublings +-1, a few up to 1 MB; keys absent, short, 250 bytes, UTF-8 or not strings at all
 * (serialized, so that the floor serializes key and value into one scratch); any opcode, those
 * with and without flags. Each try also checks the old packet against a packet built here from
 * the protocol, without the encoders.
 */
class EncoderSameOutputProperties {

    /** What one generated key or value is: a kind, a size where the kind has one, a seed. */
    enum Kind {
        NULL, ASCII, UTF8, EDGE_STRING, BYTES, BOOLEAN, INT, LONG, DATE, BYTE, FLOAT, DOUBLE,
        /** A serializable HashMap, the write-up's OBJ_MAP payload. */
        MAP,
        /** A serializable list of mixed elements, {@code size} of them. */
        LIST,
        /** A boolean[] whose JDK serialization is exactly {@code size} bytes (at least 27). */
        SERIALIZED_OF_SIZE,
        /** Not a string: an Integer, a Long or a serialized list (keys only). */
        OTHER_KEY
    }

    record Spec(Kind kind, int size, long seed) {
        Object build() {
            Random rnd = new Random(seed);
            return switch (kind) {
                case NULL -> null;
                case ASCII -> Payloads.asciiString(rnd, size);
                case UTF8 -> utf8(rnd, size);
                case EDGE_STRING -> EDGE_STRINGS.get(size % EDGE_STRINGS.size());
                case BYTES -> Payloads.bytes(rnd, size);
                case BOOLEAN -> rnd.nextBoolean();
                case INT -> size < INT_EDGES.length ? INT_EDGES[size] : rnd.nextInt();
                case LONG -> size < LONG_EDGES.length ? LONG_EDGES[size] : rnd.nextLong();
                case DATE -> new Date(size < LONG_EDGES.length ? LONG_EDGES[size] : rnd.nextLong());
                case BYTE -> size < 3 ? new byte[] {0, Byte.MIN_VALUE, Byte.MAX_VALUE}[size] : (byte) rnd.nextInt();
                case FLOAT -> size < FLOAT_BITS.length ? Float.intBitsToFloat(FLOAT_BITS[size]) : rnd.nextFloat();
                case DOUBLE -> size < DOUBLE_BITS.length ? Double.longBitsToDouble(DOUBLE_BITS[size]) : rnd.nextDouble();
                case MAP -> Payloads.OBJ_MAP.create(seed);
                case LIST -> list(rnd, size);
                case SERIALIZED_OF_SIZE -> serializedOfSize(size);
                case OTHER_KEY -> switch (size % 3) {
                    case 0 -> rnd.nextInt();
                    case 1 -> rnd.nextLong();
                    default -> list(rnd, size % 40);
                };
            };
        }
    }

    static final int[] INT_EDGES = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE};
    static final long[] LONG_EDGES = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE + 1L};
    /** Zeroes, infinities, extremes, the canonical NaN and NaNs of other bit patterns (floatToIntBits folds them). */
    static final int[] FLOAT_BITS = {0, 0x80000000, 0x7f800000, 0xff800000, 0x00000001, 0x7f7fffff,
            0x7fc00000, 0x7fc00001, 0xffc00000, 0x7f800001};
    static final long[] DOUBLE_BITS = {0, 0x8000000000000000L, 0x7ff0000000000000L, 0xfff0000000000000L, 1L,
            0x7fefffffffffffffL, 0x7ff8000000000000L, 0x7ff8000000000001L, 0xfff8000000000000L, 0x7ff0000000000001L};
    static final List<String> EDGE_STRINGS = List.of("", "a", "é", "日本", "\ud83d\ude00", "\ud83d", "\ude00",
            "a\ud83d", "\ude00\ud83d", "ключ-日本-é", "emoji \ud83d\ude00 and unpaired \ud83d and \ude00 surrogates");

    @Property(tries = 10_000)
    void everyVariantEncodesTheOldPacket(@ForAll("keys") Spec keySpec, @ForAll("values") Spec valueSpec,
                                         @ForAll("opcodes") byte opcode) {
        Object key = keySpec.build();
        Object value = valueSpec.build();
        EncoderVariant.requireSamePackets(key, value, opcode);
        // Without the encoders: the old packet is the one the protocol describes.
        byte[] old = new OldMemcacheEncoder().encodeMemcache(new MemcacheResponse(key, value, opcode, (short) 0, 7)).array();
        assertArrayEquals(packet(key, value, opcode, (short) 0, 7), old);
    }

    /** The check is not a no-op: a value that the newer encoders would serialize one byte longer is refused. */
    @Example
    void theCheckRefusesAVariantThatEncodesOneByteMore() {
        EncoderVariant.requireSamePackets("k", new ArrayList<>(List.of(1, "two")), (byte) 0);
        assertThrows(IllegalStateException.class,
                () -> EncoderVariant.requireSamePackets("k", new LongerWhenNotOld(), (byte) 0));
    }

    // ---------------------------------------------------------------- generators

    /** Absent, short, around 250 bytes, UTF-8 with surrogates, or not a string. */
    @Provide
    Arbitrary<Spec> keys() {
        return Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(new Spec(Kind.NULL, 0, 0))),
                Tuple.of(3, spec(Kind.ASCII, Arbitraries.integers().between(0, 16))),
                Tuple.of(2, spec(Kind.ASCII, Arbitraries.of(249, 250, 251, 1024))),
                Tuple.of(3, spec(Kind.UTF8, Arbitraries.integers().between(0, 80))),
                Tuple.of(2, spec(Kind.EDGE_STRING, Arbitraries.integers().between(0, EDGE_STRINGS.size() - 1))),
                Tuple.of(1, spec(Kind.OTHER_KEY, Arbitraries.integers().between(0, 100))));
    }

    /** Every type of the flag table; string, array and serialized sizes at their edges or anywhere. */
    @Provide
    Arbitrary<Spec> values() {
        Arbitrary<Integer> fixedWidthPick = Arbitraries.integers().between(0, 20);
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(new Spec(Kind.NULL, 0, 0))),
                Tuple.of(5, spec(Kind.ASCII, sizes())),
                Tuple.of(3, spec(Kind.UTF8, sizes())),
                Tuple.of(2, spec(Kind.EDGE_STRING, Arbitraries.integers().between(0, EDGE_STRINGS.size() - 1))),
                Tuple.of(5, spec(Kind.BYTES, sizes())),
                Tuple.of(1, spec(Kind.BOOLEAN, fixedWidthPick)),
                Tuple.of(1, spec(Kind.INT, fixedWidthPick)),
                Tuple.of(1, spec(Kind.LONG, fixedWidthPick)),
                Tuple.of(1, spec(Kind.DATE, fixedWidthPick)),
                Tuple.of(1, spec(Kind.BYTE, fixedWidthPick)),
                Tuple.of(1, spec(Kind.FLOAT, fixedWidthPick)),
                Tuple.of(1, spec(Kind.DOUBLE, fixedWidthPick)),
                Tuple.of(1, spec(Kind.MAP, Arbitraries.just(10))),
                Tuple.of(2, spec(Kind.LIST, Arbitraries.integers().between(0, 200))),
                Tuple.of(2, spec(Kind.SERIALIZED_OF_SIZE, Arbitraries.frequencyOf(
                        Tuple.of(1, Arbitraries.of(BOOLEANS_OVERHEAD, BOOLEANS_OVERHEAD + 1,
                                511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049)),
                        Tuple.of(1, Arbitraries.integers().between(BOOLEANS_OVERHEAD, 5000))))));
    }

    /** Empty, one byte, the old stream's 32 bytes and the floor scratch's 512 and doublings +-1, up to 1 MB. */
    static Arbitrary<Integer> sizes() {
        return Arbitraries.frequencyOf(
                Tuple.of(40, Arbitraries.of(0, 1, 2, 31, 32, 33, 63, 64, 65, 511, 512, 513, 1023, 1024, 1025,
                        2047, 2048, 2049, 8191, 8192, 8193, 32767, 32768)),
                Tuple.of(120, Arbitraries.integers().between(0, 4096)),
                Tuple.of(10, Arbitraries.integers().between(4096, 70_000)),
                // a few large ones; not mixed in as an edge case, which would make them many
                Tuple.of(1, Arbitraries.of(1 << 20).withoutEdgeCases()));
    }

    /** The opcodes that add flags (0x00, 0x09, 0x0C, 0x0D), some that do not, or any byte. */
    @Provide
    Arbitrary<Byte> opcodes() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of((byte) 0x00, (byte) 0x09, (byte) 0x0C, (byte) 0x0D, (byte) 0x01, (byte) 0x05)),
                Tuple.of(1, Arbitraries.bytes()));
    }

    private static Arbitrary<Spec> spec(Kind kind, Arbitrary<Integer> sizes) {
        return Combinators.combine(sizes, Arbitraries.longs()).as((size, seed) -> new Spec(kind, size, seed));
    }

    /** ASCII, two- and three-byte UTF-8, and surrogates, paired or not (an unpaired one encodes as '?'). */
    static String utf8(Random rnd, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            switch (rnd.nextInt(5)) {
                case 0 -> sb.append((char) rnd.nextInt(0x80));
                case 1 -> sb.append((char) (0x80 + rnd.nextInt(0x780)));
                case 2 -> sb.append((char) (0x800 + rnd.nextInt(0xD800 - 0x800)));
                case 3 -> sb.appendCodePoint(0x10000 + rnd.nextInt(0x100000));
                default -> sb.append((char) (0xD800 + rnd.nextInt(0x800)));
            }
        }
        return sb.toString();
    }

    static ArrayList<Serializable> list(Random rnd, int n) {
        ArrayList<Serializable> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(switch (rnd.nextInt(4)) {
                case 0 -> "v" + rnd.nextInt();
                case 1 -> rnd.nextLong();
                case 2 -> Payloads.bytes(rnd, rnd.nextInt(16));
                default -> rnd.nextDouble();
            });
        }
        return list;
    }

    /** The JDK serialization of an empty boolean[]: the smallest SERIALIZED_OF_SIZE. */
    static final int BOOLEANS_OVERHEAD = serialize(new boolean[0]).length;

    /** A boolean[] that serializes to exactly {@code bytes}: one byte per element. */
    static boolean[] serializedOfSize(int bytes) {
        boolean[] value = new boolean[Math.max(0, bytes - BOOLEANS_OVERHEAD)];
        for (int i = 0; i < value.length; i += 3) {
            value[i] = true;
        }
        return value;
    }

    // ---------------------------------------------------------------- the packet, from the protocol

    /** The 24-byte response header, the two flags where the opcode adds them, key, value. */
    static byte[] packet(Object key, Object value, byte opcode, short status, int opaque) {
        byte[] k = key == null ? new byte[0] : bytes(key);
        byte[] v = value == null ? new byte[0] : bytes(value);
        boolean addsFlags = opcode == 0x00 || opcode == 0x09 || opcode == 0x0C || opcode == 0x0D;
        int extras = addsFlags ? 4 : 0;
        ByteBuffer b = ByteBuffer.allocate(24 + extras + k.length + v.length);
        b.put((byte) 0x81).put(opcode).putShort((short) k.length).put((byte) extras).put((byte) 0)
                .putShort(status).putInt(extras + k.length + v.length).putInt(opaque).putLong(0);
        if (addsFlags) {
            b.putShort(key == null ? 0 : flags(key)).putShort(value == null ? 0 : flags(value));
        }
        return b.put(k).put(v).array();
    }

    static byte[] bytes(Object o) {
        if (o instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        } else if (o instanceof Boolean b) {
            return new byte[] {(byte) (b ? '1' : '0')};
        } else if (o instanceof Integer i) {
            return ByteBuffer.allocate(4).putInt(i).array();
        } else if (o instanceof Long l) {
            return ByteBuffer.allocate(8).putLong(l).array();
        } else if (o instanceof Date d) {
            return ByteBuffer.allocate(8).putLong(d.getTime()).array();
        } else if (o instanceof Byte b) {
            return new byte[] {b};
        } else if (o instanceof Float f) {
            return ByteBuffer.allocate(4).putInt(Float.floatToIntBits(f)).array();
        } else if (o instanceof Double d) {
            return ByteBuffer.allocate(8).putLong(Double.doubleToLongBits(d)).array();
        } else if (o instanceof byte[] b) {
            return b;
        }
        return serialize(o);
    }

    static short flags(Object o) {
        return (short) (o instanceof String ? 0 : o instanceof Boolean ? 0x0100 : o instanceof Integer ? 0x0200
                : o instanceof Long ? 0x0300 : o instanceof Date ? 0x0400 : o instanceof Byte ? 0x0500
                : o instanceof Float ? 0x0600 : o instanceof Double ? 0x0700 : o instanceof byte[] ? 0x0800 : 1);
    }

    static byte[] serialize(Object o) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(out)) {
            oos.writeObject(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Serializes one byte longer when a newer encoder serializes it: what a wrong variant would do. */
    static final class LongerWhenNotOld implements Serializable {
        private static final long serialVersionUID = 1L;

        private void writeObject(ObjectOutputStream out) throws IOException {
            boolean newer = StackWalker.getInstance().walk(frames -> frames.anyMatch(f ->
                    f.getClassName().equals(OptimizedMemcacheEncoder.class.getName())
                            || f.getClassName().equals(FloorMemcacheEncoder.class.getName())));
            out.writeInt(42);
            if (newer) {
                out.writeByte(0);
            }
        }
    }
}
