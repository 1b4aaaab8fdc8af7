package hotpath.marshaller;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The write-up's first isolated delta: the redundant node-name scope. The old marshal-to-stream
 * path enters the scope twice (its own, then the public {@code marshal(obj)}'s); the optimized
 * one once. Serialization is excluded, as in the write-up (13.00 vs 11.16 ns). No {@code floor}
 * variant: it enters the one scope the optimized path does.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar MarshallerNameScope}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MarshallerNameScopeBenchmark {

    @Param({"old", "optimized"})
    MarshallerVariant variant;

    private final String nodeName = "node-1";

    @Benchmark
    public String nameScope() {
        String prev = NodeNameScope.enter(nodeName);
        try {
            if (variant == MarshallerVariant.old) {
                String inner = NodeNameScope.enter(nodeName);
                try {
                    return NodeNameScope.current();
                } finally {
                    NodeNameScope.exit(nodeName, inner);
                }
            }
            return NodeNameScope.current();
        } finally {
            NodeNameScope.exit(nodeName, prev);
        }
    }
}
