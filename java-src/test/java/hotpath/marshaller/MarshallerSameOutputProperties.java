package hotpath.marshaller;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
 * {@link MarshallerVariant#requireSameBytes} over generated objects: orders dialed by the model's
 * own generator to exact sizes around the 1024-byte initial array and each of its doublings +-1
 * (a few up to 1 MB), names ASCII or multi-byte UTF-8 with paired and unpaired surrogates (the
 * floor encodes them in place), orders nested up to four deep, and null. Each try also checks the
 * old bytes against bytes laid out here from the format, without the marshallers.
 */
class MarshallerSameOutputProperties {

    /** How an order's name is made: the model's own ("ord-0042"), ASCII, or UTF-8 with surrogates. */
    enum Name {
        MODEL, EMPTY, ASCII, UTF8
    }

    /**
     * An order of about {@code size} bytes (exactly, for a model name and no nesting) holding
     * {@code depth} nested orders, the innermost taking half the bytes at each level.
     */
    record OrderSpec(int size, Name name, int depth, long seed) {
        Order build() {
            return build(size, depth, seed);
        }

        private Order build(int bytes, int level, long s) {
            if (level == 0 && name == Name.MODEL) {
                return Order.ofSize(Math.max(bytes, Order.FIXED), s);
            }
            Random rnd = new Random(s);
            Order nested = level == 0 ? null : build(bytes / 2, level - 1, rnd.nextLong());
            String n = switch (name) {
                case MODEL -> String.format("ord-%04d", rnd.nextInt(10000));
                case EMPTY -> "";
                case ASCII -> ascii(rnd, rnd.nextInt(40));
                case UTF8 -> utf8(rnd, rnd.nextInt(40));
            };
            int own = bytes - (nested == null ? 0 : length(nested));
            byte[] blob = new byte[Math.max(0, own - (Order.FIXED - 8) - n.getBytes(StandardCharsets.UTF_8).length)];
            rnd.nextBytes(blob);
            return new Order(rnd.nextInt(), rnd.nextLong(), n, blob, nested);
        }
    }

    @Property(tries = 10_000)
    void everyVariantStreamsTheBytesOfMarshal(@ForAll("orders") OrderSpec spec) {
        Order order = spec.build();
        MarshallerVariant.requireSameBytes(order);
        // Without the marshallers: the bytes are the format's, laid out here.
        assertArrayEquals(layout(order), new OldMarshaller("n", new ArrayPool()).marshal(order));
    }

    @Example
    void nullIsTheSameInEveryVariant() {
        MarshallerVariant.requireSameBytes(null);
        assertArrayEquals(new byte[] {BinaryWriter.NULL}, new OldMarshaller("n", new ArrayPool()).marshal(null));
    }

    /** The check is not a no-op: an object that the newer marshallers would write 4 bytes longer is refused. */
    @Example
    void theCheckRefusesAVariantThatWritesMoreBytes() {
        MarshallerVariant.requireSameBytes(Order.ofSize(100, 1));
        assertThrows(IllegalStateException.class, () -> MarshallerVariant.requireSameBytes(new LongerWhenNotOld()));
    }

    // ---------------------------------------------------------------- generators

    @Provide
    Arbitrary<OrderSpec> orders() {
        return Combinators.combine(sizes(),
                        Arbitraries.frequency(Tuple.of(4, Name.MODEL), Tuple.of(1, Name.EMPTY), Tuple.of(2, Name.ASCII),
                                Tuple.of(3, Name.UTF8)),
                        Arbitraries.frequency(Tuple.of(6, 0), Tuple.of(2, 1), Tuple.of(1, 2), Tuple.of(1, 4)),
                        Arbitraries.longs())
                .as(OrderSpec::new);
    }

    /** The smallest order, 256, the 1024-byte initial array and its doublings, each +-1; anywhere to 5000; a few large. */
    static Arbitrary<Integer> sizes() {
        List<Integer> small = new ArrayList<>(List.of(Order.FIXED, Order.FIXED + 1, 255, 256, 257));
        List<Integer> large = new ArrayList<>();
        for (int edge = 1024; edge <= 64 * 1024; edge *= 2) {
            (edge <= 4096 ? small : large).addAll(List.of(edge - 1, edge, edge + 1));
        }
        return Arbitraries.frequencyOf(
                Tuple.of(40, Arbitraries.of(small)),
                // the large ones are slower: drawn at their weight only, not mixed in again as edge cases
                Tuple.of(10, Arbitraries.of(large).withoutEdgeCases()),
                Tuple.of(120, Arbitraries.integers().between(Order.FIXED, 5000)),
                Tuple.of(4, Arbitraries.integers().between(5000, 70_000).withoutEdgeCases()),
                // a few of 256 KB and 1 MB; not mixed in as edge cases, which would make them many
                Tuple.of(1, Arbitraries.of(256 * 1024, 1 << 20).withoutEdgeCases()));
    }

    static String ascii(Random rnd, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) (' ' + rnd.nextInt(95)));
        }
        return sb.toString();
    }

    /** ASCII, two- and three-byte UTF-8, pairs, and lone surrogates (each written as '?'). */
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

    // ---------------------------------------------------------------- the format, laid out here

    /** An order's bytes: the 24-byte little-endian header, then id, timestamp, name, blob, nested. */
    static byte[] layout(Order order) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        layout(order, out);
        return out.toByteArray();
    }

    private static void layout(Order o, ByteArrayOutputStream out) {
        if (o == null) {
            out.write(BinaryWriter.NULL);
            return;
        }
        byte[] name = o.name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer fields = ByteBuffer.allocate(4 + 8 + 4 + name.length + 4 + o.blob.length).order(ByteOrder.LITTLE_ENDIAN);
        fields.putInt(o.id).putLong(o.timestamp).putInt(name.length).put(name).putInt(o.blob.length).put(o.blob);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        data.writeBytes(fields.array());
        layout((Order) o.nested, data);
        byte[] body = data.toByteArray();
        // The type's hash resolver, by default over the object's data bytes (nested ones included).
        int hash = 1;
        for (byte x : body) {
            hash = 31 * hash + x;
        }
        ByteBuffer header = ByteBuffer.allocate(BinaryWriter.HEADER).order(ByteOrder.LITTLE_ENDIAN);
        header.put(BinaryWriter.OBJ).put((byte) 1).putShort((short) 0).putInt(o.typeId()).putInt(hash)
                .putInt(BinaryWriter.HEADER + body.length).putInt(o.typeId() * 31).putInt(BinaryWriter.HEADER);
        out.writeBytes(header.array());
        out.writeBytes(body);
    }

    /** The serialized length of an order, nested ones included. */
    static int length(Order o) {
        return Order.FIXED - 1 - 8 + o.name.getBytes(StandardCharsets.UTF_8).length + o.blob.length
                + (o.nested == null ? 1 : length((Order) o.nested));
    }

    @Example
    void theLayoutIsTheDialedSize() {
        assertEquals(1024, layout(Order.ofSize(1024, 3)).length);
    }

    /** Writes one int more when a newer marshaller writes it: what a wrong variant would do. */
    static final class LongerWhenNotOld implements BinaryWritable {
        @Override
        public int typeId() {
            return 11;
        }

        @Override
        public void writeFields(BinaryWriter writer) {
            writer.writeInt(42);
            boolean newer = StackWalker.getInstance().walk(frames -> frames.anyMatch(f ->
                    f.getClassName().equals(OptimizedMarshaller.class.getName())
                            || f.getClassName().equals(FloorMarshaller.class.getName())));
            if (newer) {
                writer.writeInt(0);
            }
        }
    }
}
