package hotpath.zip;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * marshalZip: JDK serialization into a zlib stream, four ways — marshal then zip ({@code old}),
 * streamed through an 8 KB buffer into the compressor ({@code buffered}, the write-up's change),
 * streamed without the buffer ({@code unbuffered}, the rejected variant), beyond the write-up
 * streamed into a Deflater and buffers kept per thread ({@code floor}), and the released old
 * code ({@code upstream}: Ignite 2.17.0 {@code ZookeeperDiscoveryImpl.marshalZip}). Payloads from
 * 1.6 KB (below the ~3 KB break-even) to 8 MB; {@code RANDOM_132K} does not compress.
 * Peak live heap per call, which B/op cannot show, is measured separately by
 * {@code hotpath.peak.PeakHeapMain}.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar ZipMarshal -prof gc}
 */
@State(Scope.Thread)
@Fork(jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED") // Ignite 2.17.0 reads Buffer.address
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ZipMarshalBenchmark {

    @Param({"old", "buffered", "unbuffered", "floor", "upstream"})
    ZipVariant variant;

    @Param({"MAP_1600B", "MAP_3K", "MAP_132K", "RANDOM_132K", "LIST_1660K", "LIST_8M"})
    ZipPayload payload;

    private Object object;
    private MarshalZip zip;

    @Setup
    public void setUp() {
        object = payload.create(42);
        ZipVariant.requireSameContent(variant, object);
        zip = new MarshalZip();
    }

    @TearDown
    public void tearDown() {
        zip.releaseThreadState(); // floor's kept Deflater: ended with the trial, not by the Cleaner
    }

    @Benchmark
    public byte[] marshalZip() {
        return variant.apply(zip, object);
    }
}
