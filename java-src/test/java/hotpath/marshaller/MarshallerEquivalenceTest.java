package hotpath.marshaller;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MarshallerEquivalenceTest {

    private static final String NODE = "node-1";

    private static byte[] toStream(Marshaller m, BinaryWritable obj) throws IOException {
        ByteSink sink = new ByteSink(16);
        m.marshal(obj, sink);
        return sink.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {53, 64, 1000, 1023, 1024, 1025, 4096, 16 * 1024, 256 * 1024, 1 << 20})
    void optimizedStreamOutputEqualsOldAndMarshalForObjectsOfEverySize(int size) throws IOException {
        Marshaller old = new OldMarshaller(NODE, new ArrayPool());
        Marshaller opt = new OptimizedMarshaller(NODE, new ArrayPool());
        for (long seed = 0; seed < 20; seed++) {
            Order order = Order.ofSize(size, seed);
            byte[] expected = old.marshal(order);
            assertEquals(size, expected.length, "the object's dialed size");
            assertArrayEquals(expected, toStream(old, order));
            assertArrayEquals(expected, toStream(opt, order), "size " + size + ", seed " + seed);
            assertArrayEquals(expected, opt.marshal(order));
        }
    }

    @Test
    void manyGeneratedObjectsThroughOneWarmPoolStayIdentical() throws IOException {
        Random rnd = new Random(9);
        Marshaller old = new OldMarshaller(NODE, new ArrayPool());
        Marshaller opt = new OptimizedMarshaller(NODE, new ArrayPool());
        for (int i = 0; i < 500; i++) {
            // Sizes jump up and down so the pooled array is grown and then reused larger.
            Order order = Order.ofSize(Order.FIXED + rnd.nextInt(rnd.nextBoolean() ? 100 : 20_000), i);
            assertArrayEquals(toStream(old, order), toStream(opt, order), "object " + i);
        }
    }

    @Test
    void nullIsTheSingleByte0x65() throws IOException {
        for (Marshaller m : new Marshaller[] {new OldMarshaller(NODE, new ArrayPool()),
                new OptimizedMarshaller(NODE, new ArrayPool())}) {
            assertArrayEquals(new byte[] {0x65}, toStream(m, null));
            assertArrayEquals(new byte[] {0x65}, m.marshal(null));
        }
    }

    /** An object whose field is the marshalled bytes of another: a marshal inside a marshal. */
    static final class Envelope implements BinaryWritable {
        final Marshaller marshaller;
        final BinaryWritable inner;

        Envelope(Marshaller marshaller, BinaryWritable inner) {
            this.marshaller = marshaller;
            this.inner = inner;
        }

        @Override
        public int typeId() {
            return 7;
        }

        @Override
        public void writeFields(BinaryWriter w) {
            w.writeByteArray(marshaller.marshal(inner));
        }
    }

    @Test
    void aNestedMarshalGetsAFreshArrayAndTheOutputStaysIdentical() throws IOException {
        ArrayPool oldPool = new ArrayPool();
        ArrayPool optPool = new ArrayPool();
        Marshaller old = new OldMarshaller(NODE, oldPool);
        Marshaller opt = new OptimizedMarshaller(NODE, optPool);
        for (int size : new int[] {64, 2000, 50_000}) {
            Order inner = Order.ofSize(size, size);
            byte[] a = toStream(old, new Envelope(old, inner));
            byte[] b = toStream(opt, new Envelope(opt, inner));
            assertArrayEquals(a, b);
            assertFalse(optPool.inUse(), "the pooled array is given back after the outer marshal");
        }
    }

    /** A stream that, while being written to, runs another marshal on the same thread. */
    static final class MeddlingStream extends OutputStream {
        final Marshaller marshaller;
        boolean corrupted;

        MeddlingStream(Marshaller marshaller) {
            this.marshaller = marshaller;
        }

        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) {
            byte[] before = Arrays.copyOfRange(b, off, off + len);
            marshaller.marshal(Order.ofSize(len + 100, 12345)); // would reuse a released pooled array
            corrupted |= !Arrays.equals(before, Arrays.copyOfRange(b, off, off + len));
        }
    }

    @Test
    void thePooledArrayIsNeverWrittenAfterRelease() throws IOException {
        ArrayPool pool = new ArrayPool();
        OptimizedMarshaller opt = new OptimizedMarshaller(NODE, pool);
        opt.marshal(Order.ofSize(4096, 1), new ByteSink(16)); // warm: the pool holds a grown array
        MeddlingStream stream = new MeddlingStream(opt);
        opt.marshal(Order.ofSize(4096, 2), stream);
        assertFalse(stream.corrupted, "bytes handed to the stream changed: written after release");
        assertFalse(pool.inUse());
        // The nested marshal found the pooled array still borrowed, so it used (and released) none.
        assertEquals(2, pool.releases());
    }

    @Test
    void aReleasedWriterCannotBeWrittenAgain() {
        HeapOutputStream out = new HeapOutputStream(new ArrayPool());
        out.close();
        assertThrows(NullPointerException.class, () -> out.writeInt(1));
    }

    static final class Exploding implements BinaryWritable {
        @Override
        public int typeId() {
            return 9;
        }

        @Override
        public void writeFields(BinaryWriter w) {
            throw new IllegalStateException("boom");
        }
    }

    @Test
    void theNodeNameIsRestoredAfterSuccessAndAfterException() throws IOException {
        ArrayPool pool = new ArrayPool();
        for (Marshaller m : new Marshaller[] {new OldMarshaller(NODE, pool), new OptimizedMarshaller(NODE, pool)}) {
            assertNull(NodeNameScope.current());
            m.marshal(Order.ofSize(100, 1), new ByteSink(16));
            assertNull(NodeNameScope.current());
            assertThrows(IllegalStateException.class, () -> m.marshal(new Exploding(), new ByteSink(16)));
            assertNull(NodeNameScope.current());
            assertFalse(pool.inUse(), "the pooled array is released after an exception");

            String outer = NodeNameScope.enter("outer");
            m.marshal(Order.ofSize(100, 1), new ByteSink(16));
            assertSame("outer", NodeNameScope.current());
            NodeNameScope.exit("outer", outer);
        }
    }

    @Test
    void thePoolAdoptsTheGrownArray() {
        ArrayPool pool = new ArrayPool();
        Marshaller m = new OptimizedMarshaller(NODE, pool);
        m.marshal(Order.ofSize(5000, 1));
        assertEquals(8192, pool.pooledArray().length, "1024 doubled until 5000 fits");
    }
}
