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
        assertEquals(11, Floors.requireOneRowPerCombo("writer", "hotpath.writer").size());
    }

    @Test
    void aWriterIntoTheCallersBufferHasAFloorOfZeroHeapAndZeroNativeBytes() {
        for (Floors.Row r : Floors.read("writer")) {
            assertEquals(0, r.heapFloor(), r.benchmark());
            assertEquals(0, r.nativeFloor(), r.benchmark());
        }
    }

    @Test
    void theFloorWriterAllocatesAtLeastTheFloorAndAFewObjectsPerMessageAtEverySize() {
        Map<String, Floors.Row> rows = Floors.requireOneRowPerCombo("writer", "hotpath.writer");
        for (Floors.Combo c : Floors.combos("hotpath.writer")) {
            if (!c.variants().contains("floor")) {
                continue; // the mechanisms' benchmark runs old and optimized in parts, not the floor writer
            }
            double floor = Floors.heapBytesPerCall(c, "floor", 200, 50);
            double optimized = Floors.heapBytesPerCall(c, "optimized", 200, 50);
            assertTrue(floor >= rows.get(c.key()).heapFloor(), c.key() + ": " + floor + " B below the stated floor");
            if (c.method().getName().equals("compressedMapFields")) {
                assertTrue(floor <= optimized / 2, c.key() + ": floor " + floor + " B vs optimized " + optimized + " B");
                // Left: the resumable map writes' two iterators, 64-74 B per message under JMH
                // (88 B through this reflective loop) at every size; no byte[] per string.
                assertTrue(floor <= 128, c.key() + ": floor writer " + floor + " B per message, more than 128 B");
            } else {
                assertTrue(floor <= optimized + 8, c.key() + ": floor " + floor + " B vs optimized " + optimized + " B");
            }
        }
    }
}
