package hotpath.marshaller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import hotpath.floors.Floors;

/** data/floors/marshaller.csv against the marshaller benchmarks and what the floor marshaller allocates. */
class MarshallerFloorsTest {

    @Test
    void everyBenchmarkAndParamsCombinationHasExactlyOneFloor() {
        assertEquals(15, Floors.requireOneRowPerCombo("marshaller", "hotpath.marshaller").size());
    }

    @Test
    void marshallingIntoTheCallersStreamHasAFloorOfZeroExceptOnAColdThread() {
        for (Floors.Row r : Floors.read("marshaller")) {
            long expected = r.params().equals("pool=cold") ? Floors.align8(16 + 16 * 1024) : 0;
            assertEquals(expected, r.heapFloor(), r.benchmark() + " " + r.params());
            assertEquals(0, r.nativeFloor());
        }
    }

    @Test
    void theLeanestVariantAllocatesAtLeastTheFloorAndAWarmFloorMarshalNothing() {
        Map<String, Floors.Row> rows = Floors.requireOneRowPerCombo("marshaller", "hotpath.marshaller");
        for (Floors.Combo c : Floors.combos("hotpath.marshaller")) {
            double leanest = Floors.heapBytesPerCall(c, c.leanestVariant(), 150, 200);
            assertTrue(leanest >= rows.get(c.key()).heapFloor(), c.key() + ": " + leanest + " B below the floor");
            if (c.leanestVariant().equals("floor")) {
                double optimized = Floors.heapBytesPerCall(c, "optimized", 150, 200);
                if (c.params().containsValue("cold")) {
                    // A cold thread also makes the floor's reusable writer: a few dozen bytes more,
                    // and a new thread's own allocations vary by a hundred bytes or so from run to run.
                    assertTrue(leanest <= optimized * 1.02 + 64, c.key() + ": floor " + leanest + " vs " + optimized);
                } else {
                    assertTrue(leanest < 1, c.key() + ": a warm floor marshal allocates " + leanest + " B");
                    assertTrue(optimized >= 64, c.key() + ": optimized allocates its writer, " + optimized + " B");
                }
            }
        }
    }
}
