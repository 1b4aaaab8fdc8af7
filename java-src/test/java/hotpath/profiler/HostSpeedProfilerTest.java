package hotpath.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.PrimitiveIterator;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

/**
 * The probe's reading rule, held by what it must do with any readings rather than by how fast a
 * host ran it: a round that waited for another thread's slice is never the one it reports. What
 * that rule buys on a real CPU shared with a spinning thread is a measurement, not a test:
 * {@code HostSpeedCheck}, recorded in docs/evidence/what-the-host-probe-costs.md.
 */
class HostSpeedProfilerTest {

    private static long fastestOf(long... readings) {
        PrimitiveIterator.OfLong next = LongStream.of(readings).iterator();
        return HostSpeedProfiler.fastest(next::nextLong, readings.length);
    }

    @Test
    void aProbeReadsItsFastestRoundWhereverTheSlowOnesFall() {
        // rounds lengthened by another thread's slice, first, between and last
        assertEquals(96, fastestOf(96, 201, 350, 120));
        assertEquals(96, fastestOf(201, 350, 96, 120));
        assertEquals(96, fastestOf(350, 201, 120, 96));
        // every round slowed: the host itself, which the probe is there to read
        assertEquals(190, fastestOf(201, 350, 190, 240));
    }

    @Test
    void aProbeRunsEachOfItsRoundsOnce() {
        long[] calls = {0};
        long read = HostSpeedProfiler.fastest(() -> 100 + calls[0]++, HostSpeedProfiler.ROUNDS);
        assertEquals(HostSpeedProfiler.ROUNDS, calls[0]);
        assertEquals(100, read);
    }

    @Test
    void anIterationsFigureIsTheFasterOfItsTwoProbesInMicroseconds() {
        assertEquals(96.2, HostSpeedProfiler.figure(96_200, 201_700), 1e-9);
        assertEquals(96.2, HostSpeedProfiler.figure(201_700, 96_200), 1e-9);
    }

    @Test
    void theWalkVisitsEverySlotOfItsTable() {
        int n = 1 << 14;
        int[] next = HostSpeedProfiler.cycle(n, 0x5eed);
        boolean[] seen = new boolean[n];
        int at = 0;
        for (int i = 0; i < n; i++) {
            assertTrue(!seen[at], "slot " + at + " visited twice within one cycle");
            seen[at] = true;
            at = next[at];
        }
        assertEquals(0, at, "the walk returns to its start after exactly n steps");
    }

    @Test
    void aRealProbeReadsAPositiveTime() {
        assertTrue(HostSpeedProfiler.probe() > 0);
    }
}
