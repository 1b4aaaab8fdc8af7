package hotpath.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KnownWorkBenchmarkTest {

    @Test
    void packagedResourceGivesAPositiveStepCount() {
        assertTrue(KnownWorkBenchmark.loadSteps() > 0);
    }

    @Test
    void setupReadsTheResource() {
        KnownWorkBenchmark benchmark = new KnownWorkBenchmark();
        benchmark.setUp();
        assertEquals(KnownWorkBenchmark.loadSteps(), benchmark.steps);
    }

    @Test
    void workIsDeterministicAndDependsOnSteps() {
        int steps = KnownWorkBenchmark.loadSteps();
        long seed = 0x9E3779B97F4A7C15L;
        long once = KnownWorkBenchmark.work(seed, steps);
        assertEquals(once, KnownWorkBenchmark.work(seed, steps));
        assertNotEquals(once, KnownWorkBenchmark.work(seed, 2 * steps));
        // 2N steps is N steps twice: the chain is one sequence, not a per-call function of N
        assertEquals(KnownWorkBenchmark.work(once, steps), KnownWorkBenchmark.work(seed, 2 * steps));
        assertNotEquals(0L, once);
    }

    @Test
    void malformedStepsAreRejected() {
        assertThrows(IllegalStateException.class, () -> KnownWorkBenchmark.parseSteps(null));
        assertThrows(IllegalStateException.class, () -> KnownWorkBenchmark.parseSteps("many"));
        assertThrows(IllegalStateException.class, () -> KnownWorkBenchmark.parseSteps("0"));
        assertEquals(42, KnownWorkBenchmark.parseSteps(" 42 "));
    }
}
