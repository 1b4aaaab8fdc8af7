package hotpath.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every set of the store's mechanisms (any of the 32, drawn per try) leaves old's state over
 * generated rounds ({@link MechanismStore#requireSameState}): consume-queue entries and commit-log
 * bytes, the pulled views, offsets, counts, sizes and commercial counts, every field of every
 * dispatch request, the key and its table, and the stats with failures. Rounds of 0 to 40
 * messages, sizes at the 4 KB commercial unit +-1 and past the largest legal message (a failed
 * put), topics of 1 to 120 characters, up to six rounds so that queue offsets pass the Long
 * cache's 127, latencies from 0 to 12 s across every bucket and the 500 ms warning.
 */
class MechanismStoreSameStateProperties {

    record RoundSpec(Set<StoreMechanism> applied, int topicLength, int queueId, int count, int rounds, long seed) {
        byte[][] messages() {
            Random rnd = new Random(seed);
            byte[][] out = new byte[count][];
            for (int i = 0; i < count; i++) {
                int kind = rnd.nextInt(10);
                int size = kind == 0 ? SIZES[rnd.nextInt(SIZES.length)] : 1 + rnd.nextInt(kind < 3 ? 5000 : 1000);
                out[i] = new byte[size];
                rnd.nextBytes(out[i]);
            }
            return out;
        }

        long[] tagsCodes() {
            return new Random(~seed).longs(count).toArray();
        }
    }

    /** The 4 KB commercial unit +-1, and the largest legal message and one byte past it. */
    static final int[] SIZES = {1, 4095, 4096, 4097, MechanismStore.MAX_MESSAGE_SIZE, MechanismStore.MAX_MESSAGE_SIZE + 1};

    @Property(tries = 600)
    void everySetOfMechanismsLeavesOldsState(@ForAll("rounds") RoundSpec spec) {
        MechanismStore.requireSameState(spec.applied(), StoreEquivalence.topic(spec.topicLength()), spec.queueId(),
                spec.messages(), spec.tagsCodes(), spec.rounds(), spec.seed());
    }

    /** The benchmark's twelve variants on its own shape: 32 messages, eight rounds. */
    @Example
    void theBenchmarksVariantsLeaveOldsState() {
        RoundSpec spec = new RoundSpec(Set.of(), 9, 3, StoreMechanismsBenchmark.MESSAGES, 8, 42);
        for (String variant : StoreMechanism.aloneAndTakenBack()) {
            MechanismStore.requireSameState(StoreMechanism.parse(variant), "TopicTest", 3, spec.messages(),
                    spec.tagsCodes(), 8, 42);
        }
    }

    /** The ends are the old and the optimized models, component by component. */
    @Example
    void theEmptySetIsOldsComponentsAndTheFullSetOptimizeds() {
        byte[][] one = {new byte[10]};
        long[] tags = {1};
        try (MechanismStore old = MechanismStore.of("old", "t", 0);
             MechanismStore opt = MechanismStore.of("optimized", "t", 0)) {
            assertEquals(OldGetMessageResult.class, old.putAndPull(one, tags).getClass());
            assertEquals(OptimizedGetMessageResult.class, opt.putAndPull(one, tags).getClass());
            DispatchRequest first = opt.lastDispatched();
            opt.putAndPull(one, tags);
            assertSame(first, opt.lastDispatched(), "optimized reuses its request");
            DispatchRequest oldFirst = old.lastDispatched();
            old.putAndPull(one, tags);
            assertEquals(false, oldFirst == old.lastDispatched(), "old makes a request per message");
        }
    }

    @Example
    void theBenchmarkRunsOldOptimizedEachAloneAndEachTakenBack() throws NoSuchFieldException {
        String[] declared = StoreMechanismsBenchmark.class.getDeclaredField("variant")
                .getAnnotation(org.openjdk.jmh.annotations.Param.class).value();
        assertEquals(StoreMechanism.aloneAndTakenBack(), Arrays.asList(declared));
    }

    @Provide
    Arbitrary<RoundSpec> rounds() {
        Arbitrary<Set<StoreMechanism>> applied = Arbitraries.of(StoreMechanism.class).set();
        Arbitrary<Integer> topicLengths = Arbitraries.oneOf(Arbitraries.of(1, 8, 120), Arbitraries.integers().between(1, 120));
        Arbitrary<Integer> counts = Arbitraries.oneOf(Arbitraries.of(0, 1, 32), Arbitraries.integers().between(0, 40));
        return Combinators.combine(applied, topicLengths, Arbitraries.integers().between(0, 7), counts,
                Arbitraries.integers().between(1, 6), Arbitraries.longs())
                .as(RoundSpec::new);
    }
}
