package hotpath.marshaller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hotpath.mechanism.HeapBytesPerCall;
import hotpath.mechanism.JvmOfItsOwn;

/**
 * What a warm marshal-to-stream call allocates, per combination of mechanisms: no mechanism
 * allocates what {@link OldMarshaller} does, every mechanism what {@link OptimizedMarshaller}
 * does, and each mechanism removes its own bytes and nothing else: {@code trimless} the trim copy
 * byte[N] (16 + N bytes, rounded up to 8), {@code one-scope} nothing (a ThreadLocal read and
 * write), {@code shared-null} the byte[1] of a null object (24 bytes). The three touch different
 * allocations, so a combination removes the sum of its mechanisms' bytes.
 *
 * <p>Measured in a JVM of its own with escape analysis off ({@link JvmOfItsOwn}): the null
 * object's byte[1] only goes to the stream's write, and with it on C2 scalar-replaced it in one
 * combination's compilation and not in old's (a run of make test measured 0 B where 24 were due).
 */
class MechanismMarshallerAllocationTest {

    static final int[] SIZES = {0, 64, 1024, 16384};
    private static final int WARMUP = 20_000;
    private static final int CALLS = 5_000;
    /** Per-call averages of exact counts: equal to well under a byte once warm. */
    private static final double EXACT = 0.5;

    @Test
    void eachMechanismRemovesItsOwnBytesAndTheEndsAllocateWhatOldAndOptimizedDo()
            throws IOException, InterruptedException {
        Map<String, Double> bytes = JvmOfItsOwn.figures(Child.class);
        for (int size : SIZES) {
            double old = bytes.get(size + "/model:old");
            double optimized = bytes.get(size + "/model:optimized");
            long trimCopy = size == 0 ? 0 : HeapBytesPerCall.byteArray(size);
            long nullArray = size == 0 ? HeapBytesPerCall.byteArray(1) : 0;
            System.out.printf("marshaller, size %d, escape analysis off: old %.1f B, optimized %.1f B per call%n",
                    size, old, optimized);
            assertEquals(old - trimCopy - nullArray, optimized, EXACT, "size " + size + ": the models' own difference");
            for (String variant : MarshallerMechanism.everyCombination()) {
                EnumSet<MarshallerMechanism> applied = MarshallerMechanism.parse(variant);
                long removed = (applied.contains(MarshallerMechanism.TRIMLESS) ? trimCopy : 0)
                        + (applied.contains(MarshallerMechanism.SHARED_NULL) ? nullArray : 0);
                assertEquals(old - removed, bytes.get(size + "/" + variant), EXACT,
                        "size " + size + ", " + variant + ": old " + old + " B");
            }
        }
    }

    /** Every figure, one line each: {@code <size>/<variant> <bytes per call>}, the models as
     *  {@code model:old} and {@code model:optimized} (every combination holds old and optimized). */
    public static final class Child {
        public static void main(String[] args) {
            for (int size : SIZES) {
                Order order = size == 0 ? null : Order.ofSize(size, 42);
                print(size, "model:old", new OldMarshaller("node-1", new ArrayPool()), order);
                print(size, "model:optimized", new OptimizedMarshaller("node-1", new ArrayPool()), order);
                for (String variant : MarshallerMechanism.everyCombination()) {
                    print(size, variant, MechanismMarshaller.of(variant, "node-1", new ArrayPool()), order);
                }
            }
        }

        private static void print(int size, String name, Marshaller m, Order order) {
            ByteSink sink = new ByteSink(Math.max(16, size));
            double perCall = HeapBytesPerCall.of(() -> {
                m.marshal(order, sink.reset());
                return sink;
            }, WARMUP, CALLS);
            System.out.println(size + "/" + name + " " + perCall);
        }
    }
}
