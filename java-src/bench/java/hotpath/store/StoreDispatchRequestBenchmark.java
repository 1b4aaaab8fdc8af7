package hotpath.store;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Change 2: dispatching 32 messages. Old: a new ~20-field DispatchRequest each; optimized: one
 * per thread, every field reset. Each request is handed on (to a Blackhole, as the reput
 * service hands it to the dispatchers), so escape analysis cannot make the old one vanish.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar StoreDispatchRequest -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StoreDispatchRequestBenchmark {

    @Param({"old", "optimized", "upstream"})
    StoreVariant variant;

    private DispatchRequests requests;
    private final Map<String, String> properties = Map.of("KEYS", "order-1");

    @Setup
    public void setUp() {
        StoreEquivalence.requireSameDispatch();
        requests = variant.dispatchRequests();
        if (variant.isUpstream()) {
            UpstreamStore.requireSameDispatch();
        }
    }

    @Benchmark
    public void dispatch32(Blackhole dispatchers) {
        if (variant.isUpstream()) {
            for (int i = 0; i < 32; i++) {
                dispatchers.consume(UpstreamStore.dispatch("TopicTest", i & 3, 1L << 20 | i * 256L, 256, i,
                        1_700_000_000_000L + i, 1000 + i, "order-1", "uniq", 0, 0, properties));
            }
            return;
        }
        for (int i = 0; i < 32; i++) {
            dispatchers.consume(requests.message("TopicTest", i & 3, 1L << 20 | i * 256L, 256, i,
                    1_700_000_000_000L + i, 1000 + i, "order-1", "uniq", 0, 0, properties));
        }
    }
}
