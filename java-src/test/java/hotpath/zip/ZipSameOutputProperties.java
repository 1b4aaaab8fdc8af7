package hotpath.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * {@link ZipVariant#requireSameContent} over generated objects, mostly of one or two KB so that
 * 10,000 tries (each deflating four times) stay quick: the model's discovery maps from their own
 * generator, lists of mixed elements nested up to three deep, byte arrays whose serialization is
 * exactly the serializer's 1 KB block, 2 KB, the 8 KB input buffer and its double, +-1
 * (compressible or random), strings at the 65,535-byte boundary of the serializer's short form,
 * tiny objects and null; about ten each of the model's 132 KB payloads and a 256 KB random array.
 * Each try also checks, without the variants, that the floor variant's stream (through one kept
 * MarshalZip) inflates to the JDK serialization made here.
 */
class ZipSameOutputProperties {

    enum Shape {
        NULL,
        /** "", 42, a Long, a byte, an empty or one-byte array: by {@code size}. */
        TINY,
        /** {@link ZipPayload#MAP_1600B} or {@link ZipPayload#MAP_3K}, from the seed. */
        MODEL_MAP,
        /** A list of {@code size} mixed elements, some of them lists and maps again. */
        LIST,
        /** A byte[] whose serialization is exactly {@code size} bytes: compressible, or random. */
        COMPRESSIBLE_OF_SIZE, RANDOM_OF_SIZE,
        /** A string of {@code size} UTF-8 bytes (serialized in the short form up to 65,535, the long form past it). */
        STRING_OF_UTF_LENGTH,
        /** {@link ZipPayload#MAP_132K} or {@link ZipPayload#RANDOM_132K}. */
        LARGE_MODEL
    }

    record ObjectSpec(Shape shape, int size, long seed) {
        Object build() {
            Random rnd = new Random(seed);
            return switch (shape) {
                case NULL -> null;
                case TINY -> switch (size % 6) {
                    case 0 -> "";
                    case 1 -> 42;
                    case 2 -> rnd.nextLong();
                    case 3 -> (byte) 1;
                    case 4 -> new byte[0];
                    default -> new byte[] {(byte) rnd.nextInt()};
                };
                case MODEL_MAP -> (size % 2 == 0 ? ZipPayload.MAP_1600B : ZipPayload.MAP_3K).create(seed);
                case LIST -> list(rnd, size, 3);
                case COMPRESSIBLE_OF_SIZE -> arrayOfSerializedSize(size, rnd, true);
                case RANDOM_OF_SIZE -> arrayOfSerializedSize(size, rnd, false);
                case STRING_OF_UTF_LENGTH -> stringOfUtfLength(size, rnd);
                case LARGE_MODEL -> (size % 2 == 0 ? ZipPayload.MAP_132K : ZipPayload.RANDOM_132K).create(seed);
            };
        }
    }

    /** One MarshalZip for the check's companion: its floor sink (Deflater and buffers) is kept try after try. */
    private static final MarshalZip KEPT = new MarshalZip();

    @Property(tries = 10_000)
    void everyVariantInflatesToTheMarshalledBytes(@ForAll("objects") ObjectSpec spec) {
        Object obj = spec.build();
        ZipVariant.requireSameContent(obj);
        // Without the variants: a zlib stream that inflates to the serialization made here.
        assertArrayEquals(serialize(obj), ZipVariant.inflate(KEPT.floor(obj)));
    }

    /** The check is not a no-op: an object that the newer variants would serialize one byte longer is refused. */
    @Example
    void theCheckRefusesAVariantThatCompressesOneByteMore() {
        ZipVariant.requireSameContent(new ArrayList<>(List.of("a", 1L)));
        assertThrows(IllegalStateException.class, () -> ZipVariant.requireSameContent(new LongerWhenNotOld()));
        // a fork's own check: old's bytes are the marshalled ones, buffered's are not
        ZipVariant.requireSameContent(ZipVariant.old, new LongerWhenNotOld());
        assertThrows(IllegalStateException.class,
                () -> ZipVariant.requireSameContent(ZipVariant.buffered, new LongerWhenNotOld()));
    }

    @Example
    void dialedSizesAreExact() {
        Random rnd = new Random(1);
        for (int size : new int[] {ARRAY_OVERHEAD, 1024, ZlibSink.INPUT_SIZE + 1}) {
            assertEquals(size, MarshalZip.marshal(arrayOfSerializedSize(size, rnd, true)).length);
        }
        assertEquals(65_535, ((String) new ObjectSpec(Shape.STRING_OF_UTF_LENGTH, 65_535, 3).build())
                .getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    }

    // ---------------------------------------------------------------- generators

    @Provide
    Arbitrary<ObjectSpec> objects() {
        List<Integer> smallEdges = new ArrayList<>(List.of(ARRAY_OVERHEAD, ARRAY_OVERHEAD + 1));
        List<Integer> largeEdges = new ArrayList<>();
        for (int edge : new int[] {1024, 2048, ZlibSink.INPUT_SIZE, 2 * ZlibSink.INPUT_SIZE}) {
            (edge < ZlibSink.INPUT_SIZE ? smallEdges : largeEdges).addAll(List.of(edge - 1, edge, edge + 1));
        }
        Arbitrary<Integer> arraySizes = Arbitraries.frequencyOf(
                Tuple.of(16, Arbitraries.of(smallEdges)),
                Tuple.of(24, Arbitraries.integers().between(ARRAY_OVERHEAD, 1200)),
                // the large ones are slow: drawn at their weight only, not mixed in again as edge cases
                Tuple.of(1, Arbitraries.of(largeEdges).withoutEdgeCases()));
        return Arbitraries.frequencyOf(
                Tuple.of(20, spec(Shape.NULL, Arbitraries.just(0))),
                Tuple.of(60, spec(Shape.TINY, Arbitraries.integers().between(0, 5))),
                Tuple.of(150, spec(Shape.MODEL_MAP, Arbitraries.integers().between(0, 1))),
                Tuple.of(300, spec(Shape.LIST, Arbitraries.frequencyOf(
                        Tuple.of(1, Arbitraries.of(0, 1)), Tuple.of(6, Arbitraries.integers().between(0, 20))))),
                Tuple.of(200, spec(Shape.COMPRESSIBLE_OF_SIZE, arraySizes)),
                Tuple.of(200, spec(Shape.RANDOM_OF_SIZE, arraySizes)),
                Tuple.of(60, spec(Shape.STRING_OF_UTF_LENGTH, Arbitraries.frequencyOf(
                        Tuple.of(4, Arbitraries.of(0, 1, 2)),
                        Tuple.of(1, Arbitraries.of(65_534, 65_535, 65_536).withoutEdgeCases()),
                        Tuple.of(16, Arbitraries.integers().between(0, 1200))))),
                // about ten of each large one in 10,000; not mixed in as edge cases, which would make them many
                Tuple.of(1, spec(Shape.LARGE_MODEL, Arbitraries.integers().between(0, 1)).withoutEdgeCases()),
                Tuple.of(1, spec(Shape.RANDOM_OF_SIZE, Arbitraries.just(256 * 1024 + 1)).withoutEdgeCases()));
    }

    private static Arbitrary<ObjectSpec> spec(Shape shape, Arbitrary<Integer> sizes) {
        return Combinators.combine(sizes, Arbitraries.longs()).as((size, seed) -> new ObjectSpec(shape, size, seed));
    }

    /** Mixed elements: strings, longs, byte and int arrays, and below depth 0 no more lists or maps. */
    static ArrayList<Serializable> list(Random rnd, int n, int depth) {
        ArrayList<Serializable> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(switch (rnd.nextInt(depth > 0 ? 7 : 5)) {
                case 0 -> "s" + rnd.nextInt(1000);
                case 1 -> rnd.nextLong();
                case 2 -> new byte[rnd.nextInt(64)];
                case 3 -> {
                    byte[] b = new byte[rnd.nextInt(200)];
                    rnd.nextBytes(b);
                    yield b;
                }
                case 4 -> new int[] {rnd.nextInt(), i};
                case 5 -> list(rnd, rnd.nextInt(8), depth - 1);
                default -> {
                    HashMap<String, Serializable> map = new HashMap<>();
                    for (int j = rnd.nextInt(6); j > 0; j--) {
                        map.put("k" + rnd.nextInt(100), list(rnd, rnd.nextInt(4), depth - 1));
                    }
                    yield map;
                }
            });
        }
        return list;
    }

    /** The JDK serialization of an empty byte[]: the smallest dialed array. */
    static final int ARRAY_OVERHEAD = MarshalZip.marshal(new byte[0]).length;

    /** A byte[] whose JDK serialization is exactly {@code serialized} bytes long. */
    static byte[] arrayOfSerializedSize(int serialized, Random rnd, boolean compressible) {
        byte[] b = new byte[serialized - ARRAY_OVERHEAD];
        if (compressible) {
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) ('a' + rnd.nextInt(3));
            }
        } else {
            rnd.nextBytes(b);
        }
        return b;
    }

    /** ASCII and two-byte chars adding up to exactly {@code utfBytes} bytes of UTF-8. */
    static String stringOfUtfLength(int utfBytes, Random rnd) {
        StringBuilder sb = new StringBuilder();
        int left = utfBytes;
        while (left > 0) {
            if (left >= 2 && rnd.nextInt(4) == 0) {
                sb.append((char) (0x80 + rnd.nextInt(0x780)));
                left -= 2;
            } else {
                sb.append((char) ('a' + rnd.nextInt(26)));
                left--;
            }
        }
        return sb.toString();
    }

    static byte[] serialize(Object obj) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(out)) {
            oos.writeObject(obj);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Serializes one byte longer under a newer variant than old: what a wrong variant would do. */
    static final class LongerWhenNotOld implements Serializable {
        private static final long serialVersionUID = 1L;
        private static final Set<String> NEWER = Set.of("buffered", "unbuffered", "floor");

        private void writeObject(ObjectOutputStream out) throws IOException {
            boolean newer = StackWalker.getInstance().walk(frames -> frames.anyMatch(f ->
                    f.getClassName().equals(MarshalZip.class.getName()) && NEWER.contains(f.getMethodName())));
            out.writeInt(42);
            if (newer) {
                out.writeByte(0);
            }
        }
    }
}
