package hotpath.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MarshalZipTest {

    @ParameterizedTest
    @EnumSource(ZipPayload.class)
    void everyVariantInflatesToTheMarshalledBytesAndPayloadsHaveTheirNamedSize(ZipPayload payload) {
        Object obj = payload.create(42);
        byte[] marshalled = MarshalZip.marshal(obj);
        double ratio = marshalled.length / (double) payload.approxBytes;
        assertTrue(ratio > 0.85 && ratio < 1.15, payload + " serializes to " + marshalled.length);
        MarshalZip zip = new MarshalZip();
        for (ZipVariant v : ZipVariant.values()) {
            assertArrayEquals(marshalled, ZipVariant.inflate(v.apply(zip, obj)), v + " on " + payload);
        }
    }

    /** Generated objects of many shapes and sizes, seeds fixed. */
    static List<Object> generated() {
        List<Object> out = new ArrayList<>();
        Random rnd = new Random(11);
        for (int i = 0; i < 40; i++) {
            ArrayList<Serializable> list = new ArrayList<>();
            int n = rnd.nextInt(i % 4 == 0 ? 5000 : 50);
            for (int j = 0; j < n; j++) {
                list.add(switch (rnd.nextInt(4)) {
                    case 0 -> "s" + rnd.nextInt(1000);
                    case 1 -> rnd.nextLong();
                    case 2 -> new byte[rnd.nextInt(64)];
                    default -> new int[] {rnd.nextInt(), j};
                });
            }
            out.add(list);
        }
        out.add("");
        out.add(42);
        return out;
    }

    @Test
    void generatedPayloadsRoundTripAndCompressToTheSameBytesInEveryVariant() {
        MarshalZip zip = new MarshalZip();
        for (Object obj : generated()) {
            byte[] marshalled = MarshalZip.marshal(obj);
            byte[] old = zip.old(obj);
            for (ZipVariant v : ZipVariant.values()) {
                byte[] out = v.apply(zip, obj);
                assertArrayEquals(marshalled, ZipVariant.inflate(out));
                // zlib at the default level emits the same stream however the input is fed
                // (one setInput, 8 KB chunks or ~1 KB blocks) with NO_FLUSH: checked, not assumed.
                assertArrayEquals(old, out, v + " compressed bytes differ from old");
            }
        }
    }

    @Test
    void outputsAreZlibStreams() {
        byte[] out = new MarshalZip().buffered(ZipPayload.MAP_1600B.create(1));
        assertEquals(0x78, out[0] & 0xFF, "zlib header CMF: deflate, 32 KB window");
        assertEquals(0, ((out[0] & 0xFF) << 8 | (out[1] & 0xFF)) % 31, "zlib header check bits");
    }

    @Test
    void bufferedAndUnbufferedEndTheirDeflaterAndOldDoesNot() {
        List<Deflater> created = new ArrayList<>();
        MarshalZip zip = new MarshalZip(() -> {
            Deflater d = new Deflater();
            created.add(d);
            return d;
        });
        Object obj = ZipPayload.MAP_3K.create(3);

        zip.old(obj);
        assertEquals(1, created.size());
        Deflater oldDeflater = created.get(0);
        assertDoesNotThrow(oldDeflater::getTotalIn, "old leaves its Deflater open (native memory until the Cleaner runs)");
        oldDeflater.end();

        zip.buffered(obj);
        zip.unbuffered(obj);
        assertEquals(3, created.size());
        for (Deflater d : created.subList(1, 3)) {
            // An ended Deflater refuses every call.
            assertThrows(NullPointerException.class, d::getTotalIn);
        }
    }

    @Test
    void aDeflaterIsEndedEvenWhenSerializationFails() {
        List<Deflater> created = new ArrayList<>();
        MarshalZip zip = new MarshalZip(() -> {
            Deflater d = new Deflater();
            created.add(d);
            return d;
        });
        Object notSerializable = new ArrayList<>(List.of(new Object()));
        assertThrows(RuntimeException.class, () -> zip.buffered(notSerializable));
        assertThrows(NullPointerException.class, created.get(0)::getTotalIn);
    }
}
