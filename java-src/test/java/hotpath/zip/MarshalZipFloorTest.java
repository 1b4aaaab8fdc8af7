package hotpath.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;

class MarshalZipFloorTest {

    /** A byte[] whose JDK serialization is exactly {@code serialized} bytes long. */
    static byte[] arrayOfSerializedSize(int serialized, Random rnd, boolean compressible) {
        int overhead = MarshalZip.marshal(new byte[0]).length;
        byte[] b = new byte[serialized - overhead];
        if (compressible) {
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) ('a' + rnd.nextInt(3));
            }
        } else {
            rnd.nextBytes(b);
        }
        return b;
    }

    /** Edge shapes: tiny objects, serialized sizes at the 8 KB input buffer and the serializer's 1 KB block, +-1, and large. */
    static List<Object> edgeObjects() {
        Random rnd = new Random(29);
        List<Object> out = new ArrayList<>();
        out.add("");
        out.add((byte) 1);
        out.add(new byte[0]);
        out.add(new byte[1]);
        for (int edge : new int[] {1024, ZlibSink.INPUT_SIZE, 2 * ZlibSink.INPUT_SIZE, 64 * 1024}) {
            for (int d = -1; d <= 1; d++) {
                out.add(arrayOfSerializedSize(edge + d, rnd, true));
                out.add(arrayOfSerializedSize(edge + d, rnd, false));
            }
        }
        out.add(arrayOfSerializedSize(3 << 20, rnd, false)); // large and incompressible: the output array grows
        return out;
    }

    @Test
    void edgeSizedObjectsHaveTheirDialedSizes() {
        Random rnd = new Random(1);
        assertEquals(ZlibSink.INPUT_SIZE + 1, MarshalZip.marshal(arrayOfSerializedSize(ZlibSink.INPUT_SIZE + 1, rnd, true)).length);
    }

    @Test
    void floorCompressesToOldsBytesCallAfterCallThroughOneKeptDeflater() {
        List<Deflater> created = new ArrayList<>();
        MarshalZip zip = new MarshalZip(() -> {
            Deflater d = new Deflater();
            created.add(d);
            return d;
        });
        MarshalZip reference = new MarshalZip();
        List<Object> objects = new ArrayList<>(edgeObjects());
        objects.addAll(MarshalZipTest.generated());
        for (ZipPayload p : new ZipPayload[] {ZipPayload.MAP_1600B, ZipPayload.MAP_3K, ZipPayload.MAP_132K, ZipPayload.RANDOM_132K}) {
            objects.add(p.create(42));
        }
        int calls = 0;
        for (int round = 0; round < 2; round++) { // the second round runs with every buffer already grown
            for (Object obj : objects) {
                byte[] old = reference.old(obj);
                byte[] floor = zip.floor(obj);
                assertArrayEquals(old, floor, "call " + calls + ": " + describe(obj));
                assertArrayEquals(MarshalZip.marshal(obj), ZipVariant.inflate(floor));
                calls++;
            }
        }
        assertEquals(1, created.size(), "one Deflater for " + calls + " calls on one thread");
        assertDoesNotThrow(created.get(0)::getTotalIn, "the kept Deflater stays open between calls");
        zip.releaseThreadState();
        assertThrows(NullPointerException.class, created.get(0)::getTotalIn, "released: ended now");
    }

    private static String describe(Object obj) {
        return obj instanceof byte[] b ? "byte[" + b.length + "]" : obj.getClass().getSimpleName();
    }

    @Test
    void eachThreadGetsItsOwnDeflaterAndTheSameBytes() throws Exception {
        List<Deflater> created = java.util.Collections.synchronizedList(new ArrayList<>());
        MarshalZip zip = new MarshalZip(() -> {
            Deflater d = new Deflater();
            created.add(d);
            return d;
        });
        List<Object> objects = MarshalZipTest.generated();
        List<CompletableFuture<Integer>> threads = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        for (int t = 0; t < 3; t++) {
            int offset = t;
            threads.add(CompletableFuture.supplyAsync(() -> {
                MarshalZip reference = new MarshalZip();
                int checked = 0;
                for (int i = 0; i < objects.size(); i++) {
                    Object obj = objects.get((i + offset * 7) % objects.size());
                    assertArrayEquals(reference.old(obj), zip.floor(obj));
                    checked++;
                }
                zip.releaseThreadState();
                return checked;
            }, pool));
        }
        try {
            for (CompletableFuture<Integer> t : threads) {
                assertEquals(objects.size(), t.get());
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(3, created.size(), "one Deflater per thread");
    }

    @Test
    void aFailedSerializationLeavesTheSinkReadyForTheNextCall() {
        MarshalZip zip = new MarshalZip();
        Object good = ZipPayload.MAP_3K.create(3);
        byte[] expected = zip.old(good);
        assertArrayEquals(expected, zip.floor(good));
        Object notSerializable = new ArrayList<>(List.of("before", new Object()));
        assertThrows(RuntimeException.class, () -> zip.floor(notSerializable));
        assertArrayEquals(expected, zip.floor(good), "nothing of the failed call leaks into the next");
        zip.releaseThreadState();
    }

    @Test
    void theKeptOutputArrayGrowsToTheLargestResultAndStays() {
        MarshalZip zip = new MarshalZip();
        Random rnd = new Random(2);
        byte[] big = zip.floor(arrayOfSerializedSize(200_000, rnd, false));
        ZlibSink sink = sinkOf(zip);
        int capacity = sink.outputCapacity();
        assertTrue(capacity >= big.length, "kept at least the largest result");
        zip.floor("small");
        assertEquals(capacity, sinkOf(zip).outputCapacity());
        zip.releaseThreadState();
    }

    private static ZlibSink sinkOf(MarshalZip zip) {
        return zip.threadSink();
    }
}
