package hotpath.zip;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Which part of IGNITE-28848 pays: the marshalZip call of {@link ZipMarshalBenchmark}, on the
 * write-up's three payloads (1.6 KB, 132 KB and 1.66 MB marshalled), with every combination of its
 * three mechanisms applied to old ({@link ZipMechanism}: {@code streamed}, {@code buffered},
 * {@code ended}), so that the old-to-optimized change in time and B/op can be split among them.
 * {@code old} and {@code optimized} here are {@link MechanismMarshalZip} with no and every
 * mechanism; they allocate what {@link MarshalZip#old} and {@link MarshalZip#buffered} do
 * ({@code MechanismMarshalZipAllocationTest}). {@code old+streamed} is the write-up's rejected
 * unbuffered variant; {@code buffered} without {@code streamed} is expected to cost its 8 KB and
 * pay nothing, and {@code ended} to move no heap bytes, only the Cleaner's work.
 * The setup checks inflate(variant) == marshal(obj) and the compressed bytes against old's, and
 * aborts on a mismatch.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar ZipMechanisms -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ZipMechanismsBenchmark {

    // Every combination, as ZipMechanism.everyCombination() lists them (a test holds them equal).
    @Param({"old", "old+streamed", "old+buffered", "old+ended", "old+streamed+buffered", "old+streamed+ended",
            "old+buffered+ended", "optimized"})
    String variant;

    @Param({"MAP_1600B", "MAP_132K", "LIST_1660K"})
    ZipPayload payload;

    private Object object;
    private MechanismMarshalZip zip;

    @Setup
    public void setUp() {
        object = payload.create(42);
        zip = MechanismMarshalZip.of(variant);
        byte[] zipped = zip.marshalZip(object);
        if (!Arrays.equals(MarshalZip.marshal(object), ZipVariant.inflate(zipped))) {
            throw new IllegalStateException("inflate(" + variant + ") != marshal(obj); no timing is valid");
        }
        if (!Arrays.equals(new MarshalZip().old(object), zipped)) {
            throw new IllegalStateException(variant + " compresses to other bytes than old; no timing is valid");
        }
    }

    @Benchmark
    public byte[] marshalZip() {
        return zip.marshalZip(object);
    }
}
