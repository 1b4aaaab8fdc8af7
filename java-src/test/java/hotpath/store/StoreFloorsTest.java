package hotpath.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hotpath.floors.Floors;

/** data/floors/store.csv against the store benchmarks and what the leanest variant allocates. */
class StoreFloorsTest {

    /** A SelectMappedBufferResult: 12 header + long + two references + int + the in-cache flag, aligned. */
    static final long SELECTED = 40;
    /** A DirectByteBuffer view: 12 header + Buffer's fields + ByteBuffer's + fd, isSync, att, cleaner. */
    static final long DIRECT_VIEW = 64;
    /** The floor result: 12 header + two array references + three int counters. */
    static final long RESULT = 32;
    /** A Long past the cache: 12 header + the long, aligned. */
    static final long BOXED_OFFSET = 24;

    static long result(int n) {
        return RESULT + Floors.align8(16 + 4L * n) + 16 + 8L * n;
    }

    @Test
    void everyBenchmarkAndParamsCombinationHasExactlyOneFloor() {
        assertEquals(17, Floors.requireOneRowPerCombo("store", "hotpath.store").size());
    }

    @Test
    void resultFloorsAreOneReferenceAndOneOffsetPerMessageAndSelectsTheTwoObjectsHandedOn() {
        Map<String, Floors.Row> rows = Floors.requireOneRowPerCombo("store", "hotpath.store");
        for (int n : new int[] {1, 32, 100, 101, 256, 1024}) {
            assertEquals(result(n), rows.get("hotpath.store.StoreGetMessageResultBenchmark.largeOffsets [messages=" + n + "]").heapFloor());
        }
        assertEquals(result(32), rows.get("hotpath.store.StoreSmallOffsetsBenchmark.smallOffsets []").heapFloor());
        assertEquals(result(32) + 32 * (SELECTED + DIRECT_VIEW), rows.get("hotpath.store.StorePullPathBenchmark.pull32 []").heapFloor());
        // The whole path: the pull, and per put the next offset boxed into the topic-queue table.
        assertEquals(result(32) + 32 * (SELECTED + DIRECT_VIEW + BOXED_OFFSET),
                rows.get("hotpath.store.StoreMechanismsBenchmark.pull32 []").heapFloor());
        for (int size : new int[] {100, 4096}) {
            assertEquals(SELECTED + DIRECT_VIEW, rows.get("hotpath.store.StoreSelectMappedBufferBenchmark.select [size=" + size + "]").heapFloor());
        }
        for (Floors.Row r : rows.values()) {
            assertEquals(0, r.nativeFloor(), r.benchmark());
        }
    }

    @Test
    void theObjectSizesTheFloorsAssumeHoldOnThisJvm() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        ByteBuffer mapped = ByteBuffer.allocateDirect(4096);
        Object[] keep = new Object[1000];
        long before = mx.getThreadAllocatedBytes(thread);
        for (int i = 0; i < keep.length; i++) {
            keep[i] = mapped.slice(i, 100);
        }
        assertEquals(DIRECT_VIEW, (mx.getThreadAllocatedBytes(thread) - before) / keep.length, "a direct view");
        before = mx.getThreadAllocatedBytes(thread);
        for (int i = 0; i < keep.length; i++) {
            keep[i] = new SelectMappedBufferResult(i, mapped, i);
        }
        assertEquals(SELECTED, (mx.getThreadAllocatedBytes(thread) - before) / keep.length, "a mapped result");
        before = mx.getThreadAllocatedBytes(thread);
        for (int i = 0; i < keep.length; i++) {
            keep[i] = new FloorGetMessageResult(1);
        }
        assertEquals(result(1), (mx.getThreadAllocatedBytes(thread) - before) / keep.length, "an empty floor result for one message");
    }

    @Test
    void theLeanestVariantAllocatesAtLeastTheFloorAndFloorLessThanOptimized() {
        Map<String, Floors.Row> rows = Floors.requireOneRowPerCombo("store", "hotpath.store");
        for (Floors.Combo c : Floors.combos("hotpath.store")) {
            long stated = rows.get(c.key()).heapFloor();
            double leanest = Floors.heapBytesPerCall(c, c.leanestVariant(), 150, 200);
            assertTrue(leanest >= stated, c.key() + ": " + leanest + " B below the floor " + stated);
            if (c.leanestVariant().equals("floor")) {
                double optimized = Floors.heapBytesPerCall(c, "optimized", 150, 200);
                assertTrue(leanest < optimized, c.key() + ": floor " + leanest + " B vs optimized " + optimized + " B");
            }
        }
    }
}
