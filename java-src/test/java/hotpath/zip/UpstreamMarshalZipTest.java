package hotpath.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hotpath.fidelity.HeapPerCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The released marshalZip (Ignite 2.17.0) beside our old model: same bytes, same heap bytes. */
class UpstreamMarshalZipTest {

    @Test
    void releaseCompressesGeneratedPayloadsToOldModelsBytes() {
        UpstreamMarshalZip release = new UpstreamMarshalZip();
        MarshalZip model = new MarshalZip();
        for (Object obj : MarshalZipTest.generated()) {
            assertArrayEquals(model.old(obj), release.marshalZip(obj));
        }
    }

    @ParameterizedTest
    @EnumSource(value = ZipPayload.class, names = {"MAP_1600B", "MAP_132K"})
    void oldModelAllocatesWhatTheReleaseAllocatesPerCall(ZipPayload payload) {
        Object obj = payload.create(42);
        UpstreamMarshalZip release = new UpstreamMarshalZip();
        MarshalZip model = new MarshalZip();
        // Few calls: old leaves every Deflater to the Cleaner, whose native memory slows what follows.
        int calls = payload.approxBytes < 10_000 ? 500 : 40;
        double[] bytes = HeapPerCall.compare(() -> release.marshalZip(obj), () -> model.old(obj), calls, calls);
        assertTrue(HeapPerCall.agree(bytes[0], bytes[1]), HeapPerCall.describe(payload.name(), bytes[0], bytes[1]));
    }
}
