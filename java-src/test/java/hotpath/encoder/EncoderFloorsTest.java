package hotpath.encoder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import hotpath.floors.Floors;

/** data/floors/encoder.csv against the encoder benchmarks and what the floor encoder allocates. */
class EncoderFloorsTest {

    /** A HeapByteBuffer: 12 header + Buffer's 4 ints, long and reference + hb, offset, 3 booleans = 51, aligned. */
    static final long BYTE_BUFFER = 56;

    private static Object value(Floors.Combo c) {
        return c.params().containsKey("payload") ? Payloads.valueOf(c.params().get("payload")).create(42)
                : Payloads.bytes(new Random(42), Integer.parseInt(c.params().get("size")));
    }

    @Test
    void everyBenchmarkAndParamsCombinationHasExactlyOneFloor() {
        assertEquals(13, Floors.requireOneRowPerCombo("encoder", "hotpath.encoder").size());
    }

    @Test
    void theFloorIsThePacketArrayAndItsByteBuffer() {
        Map<String, Floors.Row> rows = Floors.requireOneRowPerCombo("encoder", "hotpath.encoder");
        for (Floors.Combo c : Floors.combos("hotpath.encoder")) {
            int packet = new OldMemcacheEncoder().encodeMemcache(new MemcacheResponse(EncoderPayloadBenchmark.KEY,
                    value(c), EncoderPayloadBenchmark.GET, (short) 0, 7)).array().length;
            assertEquals(Floors.align8(16 + packet) + BYTE_BUFFER, rows.get(c.key()).heapFloor(), c.key());
            assertEquals(0, rows.get(c.key()).nativeFloor(), c.key());
        }
    }

    @Test
    void aByteBufferOverAnArrayIs56BytesOnThisJvm() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] arr = new byte[8];
        ByteBuffer[] keep = new ByteBuffer[1000];
        long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int i = 0; i < keep.length; i++) {
            keep[i] = ByteBuffer.wrap(arr);
        }
        long perBuffer = (mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before) / keep.length;
        assertEquals(BYTE_BUFFER, perBuffer, "the floors assume compressed oops and class pointers");
    }

    @Test
    void theFloorEncoderAllocatesTheFloorExactlyExceptWhatSerializationAllocatesForItself() {
        Map<String, Floors.Row> rows = Floors.requireOneRowPerCombo("encoder", "hotpath.encoder");
        for (Floors.Combo c : Floors.combos("hotpath.encoder")) {
            if (!c.variants().contains("floor")) {
                continue; // the mechanisms' benchmark runs old and optimized in parts, not the floor encoder
            }
            long stated = rows.get(c.key()).heapFloor();
            double floor = Floors.heapBytesPerCall(c, "floor", 150, 200);
            double optimized = Floors.heapBytesPerCall(c, "optimized", 150, 200);
            assertTrue(floor >= stated, c.key() + ": " + floor + " B below the stated floor " + stated);
            assertTrue(floor < optimized, c.key() + ": floor " + floor + " B vs optimized " + optimized + " B");
            if (!"OBJ_MAP".equals(c.params().get("payload"))) {
                assertEquals(stated, floor, 1.0, c.key() + ": the packet and its ByteBuffer, nothing else");
            }
        }
    }
}
