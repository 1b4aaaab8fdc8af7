package hotpath.marshaller;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FloorMarshallerTest {

    private static final String NODE = "node-1";

    private static byte[] toStream(Marshaller m, BinaryWritable obj) throws IOException {
        ByteSink sink = new ByteSink(16);
        m.marshal(obj, sink);
        return sink.toByteArray();
    }

    /** Edge sizes: the smallest Order, the 256 and 1024-byte growth steps +-1, and large. */
    @ParameterizedTest
    @ValueSource(ints = {Order.FIXED, Order.FIXED + 1, 255, 256, 257, 1023, 1024, 1025, 2047, 2048, 2049,
            16 * 1024, 256 * 1024, 1 << 20})
    void floorStreamsTheBytesOfMarshalForObjectsOfEverySize(int size) throws IOException {
        Marshaller old = new OldMarshaller(NODE, new ArrayPool());
        Marshaller floor = new FloorMarshaller(NODE, new ArrayPool());
        for (long seed = 0; seed < 10; seed++) {
            Order order = Order.ofSize(size, seed);
            byte[] expected = old.marshal(order);
            assertArrayEquals(expected, toStream(floor, order), "size " + size + ", seed " + seed);
        }
    }

    @Test
    void oneThreadsWriterReusedForManyObjectsOfJumpingSizesStaysIdentical() throws IOException {
        Random rnd = new Random(19);
        ArrayPool pool = new ArrayPool();
        Marshaller old = new OldMarshaller(NODE, new ArrayPool());
        Marshaller floor = new FloorMarshaller(NODE, pool);
        for (int i = 0; i < 500; i++) {
            Order order = Order.ofSize(Order.FIXED + rnd.nextInt(rnd.nextBoolean() ? 100 : 40_000), i);
            assertArrayEquals(toStream(old, order), toStream(floor, order), "object " + i);
            assertFalse(pool.inUse(), "the pooled array is given back after every call");
        }
        assertEquals(500, pool.releases());
    }

    /** Strings of every UTF-8 length class, unpaired surrogates and the empty string. */
    static final class Named implements BinaryWritable {
        final String[] names;

        Named(String... names) {
            this.names = names;
        }

        @Override
        public int typeId() {
            return 11;
        }

        @Override
        public void writeFields(BinaryWriter w) {
            for (String n : names) {
                w.writeString(n);
            }
        }
    }

    @Test
    void stringsEncodedInPlaceAreTheBytesOfGetBytes() throws IOException {
        Marshaller old = new OldMarshaller(NODE, new ArrayPool());
        Marshaller floor = new FloorMarshaller(NODE, new ArrayPool());
        Named named = new Named("", "a", "ord-0001", "é", "日本語", "ключ", "\ud83d\ude00", "lone \ud83d", "\ude00 lone",
                "x".repeat(3000) + "é");
        assertArrayEquals(old.marshal(named), toStream(floor, named));
    }

    @Test
    void nullIsTheSingleByte0x65() throws IOException {
        assertArrayEquals(new byte[] {0x65}, toStream(new FloorMarshaller(NODE, new ArrayPool()), null));
    }

    @Test
    void aNestedMarshalOnTheSameThreadUsesAFreshWriterAndTheOutputStaysIdentical() throws IOException {
        Marshaller old = new OldMarshaller(NODE, new ArrayPool());
        ArrayPool pool = new ArrayPool();
        FloorMarshaller floor = new FloorMarshaller(NODE, pool);
        for (int size : new int[] {64, 2000, 50_000}) {
            Order inner = Order.ofSize(size, size);
            byte[] expected = toStream(old, new MarshallerEquivalenceTest.Envelope(old, inner));
            assertArrayEquals(expected, toStream(floor, new MarshallerEquivalenceTest.Envelope(floor, inner)));
            assertFalse(pool.inUse());
        }
    }

    /** An object that marshals another to a stream while it is itself being written. */
    static final class StreamingEnvelope implements BinaryWritable {
        final Marshaller marshaller;
        final BinaryWritable inner;

        StreamingEnvelope(Marshaller marshaller, BinaryWritable inner) {
            this.marshaller = marshaller;
            this.inner = inner;
        }

        @Override
        public int typeId() {
            return 8;
        }

        @Override
        public void writeFields(BinaryWriter w) {
            ByteSink sink = new ByteSink(16);
            try {
                marshaller.marshal(inner, sink); // marshal-to-stream inside marshal-to-stream
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            w.writeByteArray(sink.toByteArray());
        }
    }

    @Test
    void aNestedMarshalToStreamDoesNotTouchTheBusyWriter() throws IOException {
        Marshaller old = new OldMarshaller(NODE, new ArrayPool());
        Marshaller floor = new FloorMarshaller(NODE, new ArrayPool());
        Order inner = Order.ofSize(3000, 5);
        assertArrayEquals(toStream(old, new StreamingEnvelope(old, inner)),
                toStream(floor, new StreamingEnvelope(floor, inner)));
        assertArrayEquals(old.marshal(inner), toStream(floor, inner), "the kept writer is fine afterwards");
    }

    @Test
    void anExceptionClosesTheWriterAndTheNextCallStartsClean() throws IOException {
        ArrayPool pool = new ArrayPool();
        FloorMarshaller floor = new FloorMarshaller(NODE, pool);
        Order order = Order.ofSize(500, 1);
        byte[] expected = new OldMarshaller(NODE, new ArrayPool()).marshal(order);
        assertArrayEquals(expected, toStream(floor, order));
        assertThrows(IllegalStateException.class, () -> floor.marshal(new MarshallerEquivalenceTest.Exploding(), new ByteSink(16)));
        assertFalse(pool.inUse(), "released after the exception");
        assertNull(NodeNameScope.current());
        assertArrayEquals(expected, toStream(floor, order), "nothing of the failed object leaks");
    }
}
