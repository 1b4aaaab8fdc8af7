package hotpath.zip;

import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * How much of old's time is the Deflater it never ends? The same marshalZip as
 * {@link ZipMarshalBenchmark}, but every call first ends the previous call's Deflater, so
 * that no variant leaves zlib's native state (about 268 KB per Deflater) to the Cleaner.
 * For buffered and unbuffered, which end their own, that extra end() does nothing. Old here
 * against old there is the price of the Cleaner; old against buffered here is what
 * streaming alone saves. Payloads up to 132 KB, where the release weighs most.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar ZipDeflaterEnded -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ZipDeflaterEndedBenchmark {

    @Param({"old", "buffered", "unbuffered"})
    ZipVariant variant;

    @Param({"MAP_1600B", "MAP_3K", "MAP_132K"})
    ZipPayload payload;

    private Object object;
    private MarshalZip zip;
    private Deflater previous;

    @Setup
    public void setUp() {
        object = payload.create(42);
        ZipVariant.requireSameContent(object);
        zip = new MarshalZip(this::endPreviousAndCreate);
    }

    private Deflater endPreviousAndCreate() {
        if (previous != null) {
            previous.end(); // idempotent: a no-op for the variants that ended it themselves
        }
        return previous = new Deflater();
    }

    @TearDown
    public void tearDown() {
        if (previous != null) {
            previous.end();
        }
    }

    @Benchmark
    public byte[] marshalZipDeflaterEnded() {
        return variant.apply(zip, object);
    }
}
