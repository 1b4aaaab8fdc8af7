package hotpath.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class KnownAllocationBenchmarkTest {

    @Test
    void byteArrayReturnsAnArrayOfTheRequestedSize() {
        KnownAllocationBenchmark benchmark = new KnownAllocationBenchmark();
        benchmark.size = 1024;
        assertEquals(1024, benchmark.byteArray().length);
    }
}
