package hotpath.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.zip.Deflater;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link WriterVariant#requireSameBytes} over generated messages and buffer sizes: the model's
 * messages (primitive fields, the exchange message from its own generator, null compressed
 * fields), messages of any field type nested to depth 3 (plain and compressed nested messages and
 * maps of every item type), and compressed fields dialed to the 10 KB scratch and chunk sizes
 * +-1. Buffers run from the smallest the wire format allows (a varint long needs 10 free bytes)
 * to a few hundred bytes, so fields are cut at every offset; a second property writes fixed
 * messages through every buffer size from 10 to 400. Each try also checks, without the variants,
 * that writing through small buffers gives the bytes of one large buffer and that they read back.
 */
class WriterSameOutputProperties {

    /** A varint long needs 10 free bytes: the smallest buffer every message can be written through. */
    static final int MIN_BUFFER = 10;
    static final int SWEEP_MAX_BUFFER = 400;

    private static final MessageFactory FACTORY = new MessageFactory();

    @Property(tries = 10_000)
    void everyVariantWritesTheOldBytesThroughAnyBuffer(@ForAll("messages") Message msg,
                                                       @ForAll("bufferSizes") int bufferSize) {
        WriterVariant.requireSameBytes(msg, bufferSize);
        assertResumptionChangesNothing(msg, bufferSize);
    }

    /** Every buffer size from the smallest up: each field of these messages is cut at every offset. */
    @Property(generation = GenerationMode.EXHAUSTIVE)
    void everyBufferSizeFromTheSmallestCutsFieldsAtEveryOffset(
            @ForAll @IntRange(min = MIN_BUFFER, max = SWEEP_MAX_BUFFER) int bufferSize) {
        for (Message msg : List.of(PrimitiveFieldsMessage.random(bufferSize),
                ExchangeMessage.random(30, bufferSize), everyFieldType(bufferSize))) {
            WriterVariant.requireSameBytes(msg, bufferSize);
            assertResumptionChangesNothing(msg, bufferSize);
        }
    }

    /** The check is not a no-op: a variant that writes one byte differently is refused. */
    @Example
    void theCheckRefusesAVariantThatWritesOneByteDifferently() {
        Fields same = new Fields(List.of(7, new Str("ok"), new Nested(new Fields(List.of(1L)), true)));
        WriterVariant.requireSameBytes(same, 16);
        Fields differs = new Fields(List.of(7, new Str("ok"), new Nested(new Fields(List.of(1L)), true),
                new NotOld()));
        assertThrows(IllegalStateException.class, () -> WriterVariant.requireSameBytes(differs, 16));
    }

    /**
     * Without the variants: through {@code bufferSize} a writer writes the bytes it writes into one
     * buffer the message fits in, and the model's messages read back. One floor writer, kept for
     * every try (a writer is reused message after message in production too); it keeps its Deflater,
     * so this costs no zlib setup.
     */
    private static void assertResumptionChangesNothing(Message msg, int bufferSize) {
        byte[] split = MessageWire.write(KEPT, msg, bufferSize);
        // Every single write needs at most 10 free bytes: 10 more than the message is never cut.
        byte[] whole = MessageWire.write(KEPT, msg, split.length + MIN_BUFFER);
        assertArrayEquals(whole, split, "bytes through " + bufferSize + "-byte buffers vs one buffer");
        Message model = msg instanceof Described d && d.readable ? d.msg
                : msg instanceof ExchangeMessage || msg instanceof PrimitiveFieldsMessage ? msg : null;
        if (model != null) {
            MessageReader reader = new MessageReader(whole, FACTORY);
            assertEquals(model, reader.readMessage(), "read back");
            assertFalse(reader.hasRemaining(), "bytes left after the message");
        }
    }

    private static final FloorDirectMessageWriter KEPT = new FloorDirectMessageWriter(FACTORY);

    // ---------------------------------------------------------------- buffer sizes

    @Provide
    Arbitrary<Integer> bufferSizes() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.of(MIN_BUFFER, MIN_BUFFER + 1, MIN_BUFFER + 2, 15, 16, 17, 31, 32, 33,
                        63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 8192, 65536)),
                Tuple.of(4, Arbitraries.integers().between(MIN_BUFFER, SWEEP_MAX_BUFFER)
                        .withDistribution(RandomDistribution.uniform())));
    }

    // ---------------------------------------------------------------- messages

    @Provide
    Arbitrary<Message> messages() {
        return Arbitraries.frequencyOf(
                Tuple.of(30, primitiveMessages()),
                Tuple.of(30, exchangeMessages()),
                Tuple.of(40, fields(3)),
                // Rare and slow: not mixed in as edge cases, drawn at their own frequency.
                Tuple.of(1, dialedCompressedFields().withoutEdgeCases()),
                Tuple.of(1, largeExchangeMessages().withoutEdgeCases()));
    }

    /** The write-up's primitive message, each value from the varint edges or anywhere. */
    static Arbitrary<Message> primitiveMessages() {
        int n = PrimitiveFieldsMessage.ROUNDS;
        return Combinators.combine(ints().list().ofSize(n), longs().list().ofSize(n),
                        Arbitraries.bytes().list().ofSize(n), Arbitraries.of(true, false).list().ofSize(n),
                        uuids())
                .as((ints, longs, bytes, flags, id) -> {
                    PrimitiveFieldsMessage m = new PrimitiveFieldsMessage();
                    for (int i = 0; i < n; i++) {
                        m.ints[i] = ints.get(i);
                        m.longs[i] = longs.get(i);
                        m.bytes[i] = bytes.get(i);
                        m.flags[i] = flags.get(i);
                    }
                    m.id = id;
                    return new Described(m, true, "Primitive(ints=" + ints + ", longs=" + longs
                            + ", bytes=" + bytes + ", flags=" + flags + ", id=" + id + ")");
                });
    }

    /**
     * The exchange message from the model's generator: no entries, one, a few, and the counts
     * around the 10 KB scratch (340 to 500); either compressed map may be null.
     */
    static Arbitrary<Message> exchangeMessages() {
        Arbitrary<Integer> entries = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.of(0, 1, 2)),
                Tuple.of(1, Arbitraries.of(340, 385, 425, 500)),
                Tuple.of(12, Arbitraries.integers().between(0, 40)));
        Arbitrary<Integer> nulls = Arbitraries.frequency(Tuple.of(16, 0), Tuple.of(1, 1), Tuple.of(1, 2),
                Tuple.of(1, 3));
        return Combinators.combine(entries, Arbitraries.longs(), nulls).as(WriterSameOutputProperties::exchange);
    }

    /** Counter maps past the 10 KB scratch and its doublings, and deflated past one 10 KB chunk. */
    static Arbitrary<Message> largeExchangeMessages() {
        return Combinators.combine(Arbitraries.of(1670, 1800, 4000), Arbitraries.longs().between(0, 100))
                .as((entries, seed) -> exchange(entries, seed, 0));
    }

    static Message exchange(int entries, long seed, int nulls) {
        ExchangeMessage m = ExchangeMessage.random(entries, seed);
        if ((nulls & 1) != 0) {
            m.counters = null;
        }
        if ((nulls & 2) != 0) {
            m.owners = null;
        }
        return new Described(m, true, "Exchange(entries=" + entries + ", seed=" + seed
                + ", nullCounters=" + ((nulls & 1) != 0) + ", nullOwners=" + ((nulls & 2) != 0) + ")");
    }

    /**
     * One compressed field whose serialized form is exactly the 10 KB scratch, its doublings, +-1,
     * or whose deflated form is exactly one 10,240-byte chunk +-1; compressible or random bytes.
     */
    static Arbitrary<Message> dialedCompressedFields() {
        List<Message> dialed = new ArrayList<>();
        Random rnd = new Random(17);
        for (int edge : new int[] {10 * 1024, 20 * 1024, 40 * 1024}) {
            for (int d = -1; d <= 1; d++) {
                dialed.add(compressedBlob(blobOfSerializedSize(edge + d, rnd, true)));
                dialed.add(compressedBlob(blobOfSerializedSize(edge + d, rnd, false)));
            }
        }
        dialed.addAll(deflatedToChunkEdges());
        return Arbitraries.of(dialed);
    }

    private static Message compressedBlob(byte[] blob) {
        return new Fields(List.of(new Nested(new Fields(List.of(new Bytes(blob))), true)));
    }

    /** A one-array Fields message: 2 (header) + varint(n + 1) + n bytes serialized. */
    static byte[] blobOfSerializedSize(int serialized, Random rnd, boolean compressible) {
        int n = serialized - 3;
        while (2 + varintLength(n + 1) + n > serialized) {
            n--;
        }
        byte[] b = new byte[n];
        if (compressible) {
            for (int i = 0; i < n; i++) {
                b[i] = (byte) ('a' + rnd.nextInt(4));
            }
        } else {
            rnd.nextBytes(b);
        }
        return b;
    }

    /** Random blobs whose deflated form is 10,240 - 1, 10,240 and 10,240 + 1 bytes: one chunk or two. */
    private static List<Message> deflatedToChunkEdges() {
        byte[] random = new byte[11_000];
        new Random(5).nextBytes(random);
        List<Message> found = new ArrayList<>();
        int target = CompressedMessage.CHUNK_SIZE - 1;
        for (int n = 10_100; n < 10_400 && target <= CompressedMessage.CHUNK_SIZE + 1; n++) {
            Fields inner = new Fields(List.of(new Bytes(Arrays.copyOf(random, n))));
            byte[] serialized = MessageWire.write(new OldDirectMessageWriter(FACTORY), inner, n + 64);
            int deflated = new CompressedMessage(ByteBuffer.wrap(serialized), Deflater.BEST_SPEED).compressed().length;
            if (deflated == target) {
                found.add(new Fields(List.of(new Nested(inner, true))));
                target++;
            }
        }
        assertEquals(3, found.size(), "a blob for each deflated size around the chunk");
        return found;
    }

    // ---------------------------------------------------------------- any fields, nested

    /**
     * Messages of any fields nested to any depth, built from a {@link FieldsSpec}: jqwik draws and
     * shrinks the field count, the depth, the longest string or array and the seed (a structural
     * generator nested three deep costs more to draw than the writers take to write it).
     */
    static Arbitrary<Message> fields(int maxDepth) {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 20),
                        Arbitraries.integers().between(0, maxDepth),
                        Arbitraries.frequency(Tuple.of(1, 0), Tuple.of(1, 1), Tuple.of(2, 16), Tuple.of(6, 300)),
                        Arbitraries.longs())
                .as(FieldsSpec::new)
                .map(spec -> new Described(spec.build(), false, spec.toString()));
    }

    /** {@code fields} fields of every type, strings and arrays up to {@code maxLength}, nested to {@code depth}. */
    record FieldsSpec(int fields, int depth, int maxLength, long seed) {
        Fields build() {
            return build(new Random(seed), fields, depth);
        }

        private Fields build(Random rnd, int count, int level) {
            List<Object> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int kind = rnd.nextInt(level > 0 ? 14 : 11);
                out.add(switch (kind) {
                    case 0 -> (byte) rnd.nextInt();
                    case 1 -> (short) rnd.nextInt();
                    case 2 -> (Integer) item(ItemType.INT, rnd, null);
                    case 3 -> (Long) item(ItemType.LONG, rnd, null);
                    case 4 -> rnd.nextBoolean();
                    case 5 -> new Id((UUID) item(ItemType.UUID, rnd, null));
                    case 6 -> new Str(string(rnd));
                    case 7 -> new Bytes(rnd.nextInt(20) == 0 ? null : bytes(rnd));
                    case 8 -> {
                        byte[] arr = bytes(rnd);
                        int off = rnd.nextInt(arr.length + 1);
                        yield new Slice(arr, off, rnd.nextInt(arr.length - off + 1));
                    }
                    case 9 -> new Str(string(rnd)); // strings and arrays twice as often: they are what gets cut
                    case 10 -> new Bytes(bytes(rnd));
                    case 11 -> new Nested(rnd.nextInt(10) == 0 ? null : build(rnd, rnd.nextInt(count + 1), level - 1),
                            rnd.nextBoolean());
                    default -> map(rnd, count, level - 1);
                });
            }
            return new Fields(out);
        }

        /** A map of every key and value item type, plain or compressed; null, empty or up to 6 entries. */
        private MapField map(Random rnd, int count, int level) {
            ItemType[] types = ItemType.values();
            ItemType keyType = types[rnd.nextInt(types.length)];
            ItemType valType = types[rnd.nextInt(types.length)];
            boolean compress = rnd.nextBoolean();
            int size = rnd.nextInt(10) == 0 ? -1 : rnd.nextInt(7);
            if (size < 0) {
                return new MapField(null, keyType, valType, compress);
            }
            Map<Object, Object> map = new LinkedHashMap<>();
            for (int i = 0; i < size; i++) {
                Message nested = build(rnd, rnd.nextInt(count / 2 + 1), level);
                map.put(item(keyType, rnd, nested), item(valType, rnd, nested));
            }
            return new MapField(map, keyType, valType, compress);
        }

        private String string(Random rnd) {
            int pick = rnd.nextInt(20);
            if (pick == 0) {
                return null;
            }
            if (pick < 5) {
                return STRING_EDGES.get(rnd.nextInt(STRING_EDGES.size()));
            }
            int n = maxLength == 0 ? 0 : rnd.nextInt(maxLength + 1);
            StringBuilder sb = new StringBuilder(n);
            for (int i = 0; i < n; i++) {
                int range = rnd.nextInt(4);
                // ASCII, two-byte, three-byte UTF-8, and surrogates (paired or not)
                sb.append(range == 0 ? (char) rnd.nextInt(0x80) : range == 1 ? (char) (0x80 + rnd.nextInt(0x780))
                        : range == 2 ? (char) (0x800 + rnd.nextInt(0xF800)) : (char) (0xD800 + rnd.nextInt(0x800)));
            }
            return sb.toString();
        }

        private byte[] bytes(Random rnd) {
            int n = rnd.nextInt(4) == 0 ? BYTE_LENGTH_EDGES[rnd.nextInt(BYTE_LENGTH_EDGES.length)]
                    : rnd.nextInt(maxLength + 1);
            byte[] b = new byte[Math.min(n, Math.max(maxLength, 1))];
            rnd.nextBytes(b);
            return b;
        }
    }

    static final int[] BYTE_LENGTH_EDGES = {0, 1, 2, 4, 5, 9, 10, 11, 127, 128};

    /** A map item of the given type, from {@code rnd}; a message item is partition counters or {@code nested}. */
    static Object item(ItemType type, Random rnd, Message nested) {
        boolean edge = rnd.nextInt(3) == 0;
        boolean isNull = rnd.nextInt(10) == 0;
        return switch (type) {
            case INT -> edge ? INT_EDGES.get(rnd.nextInt(INT_EDGES.size())) : (Object) rnd.nextInt();
            case LONG -> edge ? LONG_EDGES.get(rnd.nextInt(LONG_EDGES.size())) : (Object) rnd.nextLong();
            case STRING -> isNull ? null : edge ? STRING_EDGES.get(rnd.nextInt(STRING_EDGES.size()))
                    : Long.toString(rnd.nextLong(), 2 + rnd.nextInt(35));
            case BYTE_ARR -> {
                if (isNull) {
                    yield null;
                }
                byte[] b = new byte[rnd.nextInt(40)];
                rnd.nextBytes(b);
                yield b;
            }
            case UUID -> isNull ? null : new UUID(rnd.nextLong(), rnd.nextLong());
            case MSG -> isNull ? null : rnd.nextBoolean() && nested != null ? nested
                    : counters(rnd.nextLong() >> rnd.nextInt(64), rnd.nextLong(), rnd.nextInt(), rnd.nextInt(5));
        };
    }

    static final List<Integer> INT_EDGES = new ArrayList<>(List.of(0, 1, -1, -2, Integer.MIN_VALUE, Integer.MAX_VALUE));
    static final List<Long> LONG_EDGES = new ArrayList<>(List.of(0L, 1L, -1L, -2L, Long.MIN_VALUE, Long.MAX_VALUE));
    static final List<String> STRING_EDGES = List.of("", "a", "é", "日本", "\ud83d\ude00", "\ud83d", "\ude00",
            "a\ud83d", "\ude00\ud83d", "ключ-日本-é");

    static {
        // value + 1 is written in 7-bit groups: the values whose encoding gains a byte, and their neighbours
        for (int bits = 7; bits < 32; bits += 7) {
            INT_EDGES.addAll(List.of((1 << bits) - 2, (1 << bits) - 1, 1 << bits));
        }
        for (int bits = 7; bits < 64; bits += 7) {
            LONG_EDGES.addAll(List.of((1L << bits) - 2, (1L << bits) - 1, 1L << bits));
        }
    }

    /** Varint boundaries of value + 1 (7, 14, 21 and 28 bits), the extremes, or anything. */
    static Arbitrary<Integer> ints() {
        return Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.of(INT_EDGES)), Tuple.of(2, Arbitraries.integers()));
    }

    static Arbitrary<Long> longs() {
        return Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.of(LONG_EDGES)), Tuple.of(2, Arbitraries.longs()));
    }

    static Arbitrary<UUID> uuids() {
        return Combinators.combine(Arbitraries.longs(), Arbitraries.longs()).as(UUID::new).injectNull(0.1);
    }

    /** Every field type once, nested and compressed: the sweep's third message. */
    static Fields everyFieldType(long seed) {
        Random rnd = new Random(seed);
        byte[] arr = new byte[200 + rnd.nextInt(100)];
        rnd.nextBytes(arr);
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            map.put("k" + rnd.nextInt(), counters(rnd.nextLong(), i, -i, rnd.nextInt()));
        }
        Fields inner = new Fields(List.of(new Str("ключ-日本-é \ud83d\ude00"), new Bytes(arr),
                new Id(new UUID(rnd.nextLong(), rnd.nextLong())), rnd.nextLong()));
        return new Fields(List.of((byte) 1, (short) -2, rnd.nextInt(), rnd.nextLong(), true,
                new Id(new UUID(rnd.nextLong(), rnd.nextLong())), new Str(Long.toHexString(rnd.nextLong())),
                new Bytes(arr), new Slice(arr, 7, 150), new Nested(inner, false), new Nested(inner, true),
                new Nested(null, true), new MapField(map, ItemType.STRING, ItemType.MSG, false),
                new MapField(map, ItemType.STRING, ItemType.MSG, true), new Id(null), new Str(null)));
    }

    /** The exchange message's map value, with its values in the description. */
    static Message counters(long initial, long update, long size, int state) {
        return new Described(new PartitionCounters(initial, update, size, state), false,
                "Counters(" + initial + ", " + update + ", " + size + ", " + state + ")");
    }

    private static int varintLength(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    // ---------------------------------------------------------------- the generated message types

    /** A model message with a readable description (what a shrunk failure prints). */
    static final class Described implements Message {
        final Message msg;
        /** Whether the model's reader reads it back as a top-level message. */
        final boolean readable;
        final String description;

        Described(Message msg, boolean readable, String description) {
            this.msg = msg;
            this.readable = readable;
            this.description = description;
        }

        @Override
        public short directType() {
            return msg.directType();
        }

        @Override
        public boolean writeTo(MessageWriter writer) {
            return msg.writeTo(writer);
        }

        @Override
        public void readFrom(MessageReader reader) {
            msg.readFrom(reader);
        }

        @Override
        public String toString() {
            return description;
        }
    }

    record Str(String value) {
    }

    record Id(UUID value) {
    }

    record Bytes(byte[] value) {
        @Override
        public String toString() {
            return value == null ? "Bytes(null)" : value.length <= 16 ? "Bytes" + Arrays.toString(value)
                    : "Bytes(" + value.length + ")";
        }
    }

    record Slice(byte[] array, int off, int len) {
        @Override
        public String toString() {
            return "Slice(" + array.length + ", off=" + off + ", len=" + len + ")";
        }
    }

    record Nested(Message value, boolean compress) {
    }

    record MapField(Map<Object, Object> value, ItemType keyType, ItemType valType, boolean compress) {
        @Override
        public String toString() {
            if (value == null) {
                return "Map(null, " + keyType + ", " + valType + ", compress=" + compress + ")";
            }
            StringBuilder sb = new StringBuilder("Map(" + keyType + ", " + valType + ", compress=" + compress + ", {");
            value.forEach((k, v) -> sb.append(describe(k)).append('=').append(describe(v)).append(", "));
            return sb.append("})").toString();
        }

        private static String describe(Object o) {
            return o instanceof byte[] b ? new Bytes(b).toString() : String.valueOf(o);
        }
    }

    /** One byte that only the old writer writes as 0: what a wrong variant would do. */
    record NotOld() {
    }

    /** A message of any fields, written in order, one writer state per field. */
    static final class Fields implements Message {
        static final short TYPE = 60;
        final List<Object> fields;

        Fields(List<Object> fields) {
            this.fields = fields;
        }

        @Override
        public short directType() {
            return TYPE;
        }

        @Override
        public boolean writeTo(MessageWriter writer) {
            if (!writer.isHeaderWritten()) {
                if (!writer.writeHeader(TYPE)) {
                    return false;
                }
                writer.onHeaderWritten();
            }
            for (int s = writer.state(); s < fields.size(); s = writer.state()) {
                if (!write(writer, fields.get(s))) {
                    return false;
                }
                writer.incrementState();
            }
            return true;
        }

        private static boolean write(MessageWriter w, Object f) {
            if (f instanceof Byte b) {
                return w.writeByte(b);
            } else if (f instanceof Short s) {
                return w.writeShort(s);
            } else if (f instanceof Integer i) {
                return w.writeInt(i);
            } else if (f instanceof Long l) {
                return w.writeLong(l);
            } else if (f instanceof Boolean b) {
                return w.writeBoolean(b);
            } else if (f instanceof Id id) {
                return w.writeUuid(id.value());
            } else if (f instanceof Str s) {
                return w.writeString(s.value());
            } else if (f instanceof Bytes b) {
                return w.writeByteArray(b.value());
            } else if (f instanceof Slice s) {
                return w.writeByteArray(s.array(), s.off(), s.len());
            } else if (f instanceof Nested n) {
                return w.writeMessage(n.value(), n.compress());
            } else if (f instanceof MapField m) {
                return w.writeMap(m.value(), m.keyType(), m.valType(), m.compress());
            } else if (f instanceof NotOld) {
                return w.writeByte(w instanceof OldDirectMessageWriter ? (byte) 0 : (byte) 1);
            }
            throw new IllegalArgumentException("no field type " + f.getClass());
        }

        @Override
        public void readFrom(MessageReader reader) {
            throw new UnsupportedOperationException("written only");
        }

        @Override
        public String toString() {
            return "Fields" + fields;
        }
    }
}
