package hotpath.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import hotpath.floors.Floors;

/** data/floors/writer.csv against the writer benchmarks and what the floor writer allocates. */
class WriterFloorsTest {

    @Test
    void everyBenchmarkAndParamsCombinationHasExactlyOneFloor() {
        assertEquals(9, Floors.requireOneRowPerCombo("writer", "hotpath.writer").size());
    }

    @Test
    void aWriterIntoTheCallersBufferHasAFloorOfZeroHeapAndZeroNativeBytes() {
        for (Floors.Row r : Floors.read("writer")) {
            assertEquals(0, r.heapFloor(), r.benchmark());
            assertEquals(0, r.nativeFloor(), r.benchmark());
        }
    }

    @Test
    void theFloorWriterAllocatesAtLeastTheFloorAndAtMostHalfOfTheOptimizedWriter() {
        Map<String, Floors.Row> rows = Floors.requireOneRowPerCombo("writer", "hotpath.writer");
        for (Floors.Combo c : Floors.combos("hotpath.writer")) {
            double floor = Floors.heapBytesPerCall(c, "floor", 200, 50);
            double optimized = Floors.heapBytesPerCall(c, "optimized", 200, 50);
            assertTrue(floor >= rows.get(c.key()).heapFloor(), c.key() + ": " + floor + " B below the stated floor");
            if (c.method().getName().equals("compressedMapFields")) {
                // What is left: the two map iterators (32 B each) of the resumable map write.
                assertTrue(floor <= optimized / 2, c.key() + ": floor " + floor + " B vs optimized " + optimized + " B");
                assertTrue(floor < 256, c.key() + ": floor writer allocates " + floor + " B per message");
            } else {
                assertTrue(floor <= optimized + 8, c.key() + ": floor " + floor + " B vs optimized " + optimized + " B");
            }
        }
    }
}
