package hotpath.zip;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import hotpath.peak.PeakCall;
import hotpath.peak.PeakCalls;

/** Every variant on every payload, for the peak-live-heap measurement. */
public final class ZipPeakCalls implements PeakCalls {

    static final String BENCHMARK = "hotpath.zip.ZipMarshalBenchmark.marshalZip";

    @Override
    public List<PeakCall> calls() {
        List<PeakCall> calls = new ArrayList<>();
        for (ZipPayload payload : ZipPayload.values()) {
            for (ZipVariant variant : ZipVariant.values()) {
                calls.add(new PeakCall(BENCHMARK,
                        Map.of("variant", variant.name(), "payload", payload.name()),
                        payload.name(), () -> payload.create(42),
                        obj -> variant.apply(new MarshalZip(), obj),
                        // Every variant writes old's compressed bytes (the setups and tests check it);
                        // counting them with old keeps Ignite out of the measuring JVM.
                        obj -> Map.of("marshalledBytes", (long) MarshalZip.marshal(obj).length,
                                "zippedBytes", (long) ZipVariant.old.apply(new MarshalZip(), obj).length)));
            }
        }
        return calls;
    }
}
