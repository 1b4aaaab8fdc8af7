package hotpath.calibration;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Calibration for the native-memory profiler: exactly one {@code allocateDirect(4096)} per
 * operation (4,096 native bytes, plus the allocator's page-alignment slack if any), and one
 * Deflater created and ended per operation (zlib's state, some hundreds of KB).
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar KnownNativeAllocation -prof hotpath.profiler.NativeAllocProfiler}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KnownNativeAllocationBenchmark {

    @Benchmark
    public ByteBuffer directBuffer() {
        return ByteBuffer.allocateDirect(4096);
    }

    @Benchmark
    public long deflater() {
        Deflater d = new Deflater();
        try {
            return d.getTotalIn();
        } finally {
            d.end();
        }
    }
}
