package hotpath.marshaller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumSet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import hotpath.mechanism.HeapBytesPerCall;

/**
 * What a warm marshal-to-stream call allocates, per combination of mechanisms: no mechanism
 * allocates what {@link OldMarshaller} does, every mechanism what {@link OptimizedMarshaller}
 * does, and each mechanism removes its own bytes and nothing else: {@code trimless} the trim copy
 * byte[N] (16 + N bytes, rounded up to 8), {@code one-scope} nothing (a ThreadLocal read and
 * write), {@code shared-null} the byte[1] of a null object (24 bytes). The three touch different
 * allocations, so a combination removes the sum of its mechanisms' bytes.
 */
class MechanismMarshallerAllocationTest {

    private static final int WARMUP = 20_000;
    private static final int CALLS = 5_000;
    /** Per-call averages of exact counts: equal to well under a byte once warm. */
    private static final double EXACT = 0.5;

    /** {@code size} 0 is a null object. */
    @ParameterizedTest
    @ValueSource(ints = {0, 64, 1024, 16384})
    void eachMechanismRemovesItsOwnBytesAndTheEndsAllocateWhatOldAndOptimizedDo(int size) {
        Order order = size == 0 ? null : Order.ofSize(size, 42);
        double old = perCall(new OldMarshaller("node-1", new ArrayPool()), order, size);
        double optimized = perCall(new OptimizedMarshaller("node-1", new ArrayPool()), order, size);
        long trimCopy = size == 0 ? 0 : HeapBytesPerCall.byteArray(size);
        long nullArray = size == 0 ? HeapBytesPerCall.byteArray(1) : 0;
        System.out.printf("marshaller, size %d: old %.1f B, optimized %.1f B per call%n", size, old, optimized);
        assertEquals(old - trimCopy - nullArray, optimized, EXACT, "size " + size + ": the models' own difference");

        for (String variant : MarshallerMechanism.everyCombination()) {
            EnumSet<MarshallerMechanism> applied = MarshallerMechanism.parse(variant);
            long removed = (applied.contains(MarshallerMechanism.TRIMLESS) ? trimCopy : 0)
                    + (applied.contains(MarshallerMechanism.SHARED_NULL) ? nullArray : 0);
            double actual = perCall(MechanismMarshaller.of(variant, "node-1", new ArrayPool()), order, size);
            assertEquals(old - removed, actual, EXACT, "size " + size + ", " + variant + ": old " + old + " B");
        }
        assertEquals(old, perCall(MechanismMarshaller.of("old", "node-1", new ArrayPool()), order, size), EXACT);
        assertEquals(optimized, perCall(MechanismMarshaller.of("optimized", "node-1", new ArrayPool()), order, size), EXACT);
    }

    private static double perCall(Marshaller m, Order order, int size) {
        ByteSink sink = new ByteSink(Math.max(16, size));
        return HeapBytesPerCall.of(() -> {
            m.marshal(order, sink.reset());
            return sink;
        }, WARMUP, CALLS);
    }
}
