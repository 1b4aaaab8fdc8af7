package hotpath.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The fresh-JVM probe on operations whose heap bytes per call are known. */
class HeapProbeTest {

    @Test
    void twoOperationsOfTheSameBytesAgreeAtOnce() {
        double[] bytes = HeapProbe.leastOfBoth(1, 3, Array64.class, Array64.class, "", 20_000, 20_000);
        assertTrue(HeapPerCall.agree(bytes[0], bytes[1]), bytes[0] + " vs " + bytes[1]);
        assertEquals(80, bytes[0], 8, "a byte[64]: 16 B of header and 64 of data");
    }

    @Test
    void aSideThatNeverReachesTheOthersBytesStillDisagreesAfterTheMost() {
        double[] bytes = HeapProbe.leastOfBoth(1, 2, Array64.class, Array256.class, "", 20_000, 20_000);
        assertFalse(HeapPerCall.agree(bytes[0], bytes[1]), bytes[0] + " vs " + bytes[1]);
    }

    /** A new byte[64] per call, kept from escape analysis by being returned. */
    public static final class Array64 implements Function<String, Supplier<?>> {
        @Override
        public Supplier<?> apply(String arg) {
            return () -> new byte[64];
        }
    }

    /** A new byte[256] per call. */
    public static final class Array256 implements Function<String, Supplier<?>> {
        @Override
        public Supplier<?> apply(String arg) {
            return () -> new byte[256];
        }
    }
}
