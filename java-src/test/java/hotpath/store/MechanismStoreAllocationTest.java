package hotpath.store;

import static hotpath.mechanism.HeapBytesPerCall.byteArray;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import hotpath.mechanism.HeapBytesPerCall;
import hotpath.mechanism.JvmOfItsOwn;

/**
 * What one round of the benchmark's path (32 messages put, appended, dispatched, pulled) allocates
 * per variant: no mechanism what the old models do, every mechanism what the optimized ones do,
 * and each mechanism, alone or taken back, exactly its own objects, figured from the mechanics:
 * <ul>
 *   <li>{@code primitive-offsets}: the offsets' ArrayList (24 B) and Object[100] (416 B) and a Long
 *       (24 B) per offset (all past the cache), less the long[32] (272 B);</li>
 *   <li>{@code reused-request}: a DispatchRequest (112 B) per message;</li>
 *   <li>{@code slices}: per message the select's intermediate slice and the append's slice, two
 *       64-byte DirectByteBuffers;</li>
 *   <li>{@code no-lambda}: per put the capturing lambda (32 B) and thenAccept's dependent future
 *       (24 B);</li>
 *   <li>{@code cached-key}: per put two keys, each a StringBuilder (24 B), its byte[16] (32 B), the
 *       String (24 B) and its byte[11] of "TopicTest-3" (32 B).</li>
 * </ul>
 * Measured in a JVM of its own with escape analysis and C2's string-concatenation folding off
 * (which otherwise builds the key's String without its StringBuilder: 56 B a key, not 112): most of these objects are short-lived
 * and never escape (the slices, the lambda and its future, the key builders), and with it on, C2
 * scalar-replaces some of them in some compilations and not in others, as the branch profiles
 * of the one compiled path left by the variants measured before go (one run measured old+no-lambda
 * 768 B above old, and old+reused-request and old+cached-key the same 2,816 B below it). Without
 * them every object of the mechanics is allocated and the figures hold exactly; what C2 removes
 * on top is for the benchmark to show.
 */
class MechanismStoreAllocationTest {

    static final int N = StoreMechanismsBenchmark.MESSAGES;
    private static final double EXACT = 0.5;
    private static final long DIRECT_VIEW = StoreFloorsTest.DIRECT_VIEW;

    static final Map<StoreMechanism, Long> REMOVES = Map.of(
            StoreMechanism.PRIMITIVE_OFFSETS, 24 + byteArray(4L * 100) + N * 24L - byteArray(8L * N),
            StoreMechanism.REUSED_REQUEST, N * 112L,
            StoreMechanism.SLICES, N * 2 * DIRECT_VIEW,
            StoreMechanism.NO_LAMBDA, N * (32L + 24),
            StoreMechanism.CACHED_KEY, N * 2 * (24 + byteArray(16) + 24 + byteArray("TopicTest-3".length())));

    @Test
    void eachMechanismAloneOrTakenBackRemovesExactlyItsOwnObjects() throws IOException, InterruptedException {
        Map<String, Double> bytes = measureInChildJvm();
        double old = bytes.get("old");
        double optimized = bytes.get("optimized");
        long all = REMOVES.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("store, escape analysis off: old %.1f B, optimized %.1f B per round of %d%n", old, optimized, N);
        bytes.forEach((v, b) -> System.out.printf("store %-30s %8.1f  removed %8.1f%n", v, b, old - b));
        assertEquals(old - all, optimized, EXACT, "the models' own difference");
        for (String variant : StoreMechanism.aloneAndTakenBack()) {
            EnumSet<StoreMechanism> applied = StoreMechanism.parse(variant);
            long removed = applied.stream().mapToLong(REMOVES::get).sum();
            assertEquals(old - removed, bytes.get(variant), EXACT, variant + ": old " + old + " B");
        }
    }

    private static Map<String, Double> measureInChildJvm() throws IOException, InterruptedException {
        Map<String, Double> bytes = JvmOfItsOwn.figures(Child.class, "-XX:-OptimizeStringConcat");
        assertEquals(StoreMechanism.aloneAndTakenBack(), java.util.List.copyOf(bytes.keySet()), bytes.toString());
        return bytes;
    }

    /** Measures every variant's bytes per round, one line each: {@code <variant> <bytes>}. */
    public static final class Child {
        public static void main(String[] args) {
            Random rnd = new Random(42);
            byte[][] messages = new byte[N][];
            long[] tags = new long[N];
            for (int i = 0; i < N; i++) {
                messages[i] = new byte[200 + rnd.nextInt(800)];
                rnd.nextBytes(messages[i]);
                tags[i] = rnd.nextLong();
            }
            for (String variant : StoreMechanism.aloneAndTakenBack()) {
                try (MechanismStore store = MechanismStore.of(variant, "TopicTest", 3)) {
                    double perRound = HeapBytesPerCall.of(() -> store.putAndPull(messages, tags), 2000, 500);
                    System.out.println(variant + " " + perRound);
                }
            }
        }
    }
}
