package hotpath.marshaller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.function.Function;
import java.util.function.Supplier;

import hotpath.fidelity.HeapPerCall;
import hotpath.fidelity.HeapProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The released marshaller (Ignite 2.17.0) beside our old model: faithful output, same heap bytes. */
class UpstreamMarshallerTest {

    @ParameterizedTest
    @ValueSource(ints = {64, 100, 1023, 1024, 1025, 4096, 16384, 262144})
    void releaseStreamsItsOwnMarshalOfTheModelsLengthAndReadsItBack(int size) {
        UpstreamMarshaller release = new UpstreamMarshaller("node-1", new ArrayPool());
        Marshaller model = new OldMarshaller("node-1", new ArrayPool());
        for (long seed = 1; seed <= 5; seed++) {
            Order order = Order.ofSize(size, seed);
            int length = model.marshal(order).length;
            assertEquals(size, length);
            Order same = release.sameSize(order, length);
            release.requireFaithful(same, length);
            assertEquals(length, release.marshal(same).length);
        }
    }

    @Test
    void faithfulnessCheckFailsOnALengthMismatch() {
        UpstreamMarshaller release = new UpstreamMarshaller("node-1", new ArrayPool());
        Order order = Order.ofSize(1024, 1);
        assertThrows(IllegalStateException.class, () -> release.requireFaithful(order, 1024));
    }

    @Test
    void theReleaseTakesTheNodeNameScopeTwiceAndLeavesItAsItWas() throws IOException {
        UpstreamMarshaller release = new UpstreamMarshaller("node-1", new ArrayPool());
        Order order = release.sameSize(Order.ofSize(256, 3), 256);
        ByteSink sink = new ByteSink(16);
        release.marshal(order, sink);
        assertTrue(Arrays.equals(release.marshal(order), sink.toByteArray()));
    }

    /**
     * The fixed part (writer, stream, handles, boxed type id, name bytes) and the byte[N] slope,
     * measured in fresh JVMs, one per side, as benchmark forks measure it.
     */
    @ParameterizedTest
    @ValueSource(ints = {64, 1024, 16384})
    void oldModelAllocatesWhatTheReleaseAllocatesPerCall(int size) {
        // The release's binary writer settles after ~200,000 calls.
        int warmup = size <= 1024 ? 250_000 : 100_000;
        String arg = Integer.toString(size);
        double[] bytes = HeapProbe.leastOfBoth(2, 5, ReleaseMarshal.class, ModelMarshal.class, arg, warmup, 20_000);
        assertTrue(HeapPerCall.agree(bytes[0], bytes[1]), HeapPerCall.describe(size + " B", bytes[0], bytes[1]));
        assertEquals(16 + size + 152, bytes[1], 8, "the model's byte[N] and fixed part");
    }

    /** The benchmark's operation on the release: an order of the model's size, to a reused sink. */
    public static final class ReleaseMarshal implements Function<String, Supplier<?>> {
        @Override
        public Supplier<?> apply(String size) {
            int n = Integer.parseInt(size);
            UpstreamMarshaller release = new UpstreamMarshaller("node-1", new ArrayPool());
            Order order = release.sameSize(Order.ofSize(n, 42), n);
            ByteSink sink = new ByteSink(n);
            return () -> {
                release.marshal(order, sink.reset());
                return sink;
            };
        }
    }

    /** The benchmark's operation on our old model. */
    public static final class ModelMarshal implements Function<String, Supplier<?>> {
        @Override
        public Supplier<?> apply(String size) {
            int n = Integer.parseInt(size);
            Marshaller model = new OldMarshaller("node-1", new ArrayPool());
            Order order = Order.ofSize(n, 42);
            ByteSink sink = new ByteSink(n);
            return () -> {
                try {
                    model.marshal(order, sink.reset());
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                return sink;
            };
        }
    }
}
