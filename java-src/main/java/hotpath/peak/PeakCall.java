package hotpath.peak;

import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One call whose peak live heap is measured: the JMH benchmark and params it corresponds to,
 * how to build its payload, and the call itself. {@code baselineKey} names the payload, so
 * calls on the same payload share one baseline measurement. {@code facts} are sizes worth
 * recording beside the peak (e.g. bytes in and out), computed once in the measuring JVM.
 */
public record PeakCall(String benchmark, Map<String, String> params, String baselineKey,
                       Supplier<Object> payload, Function<Object, Object> call,
                       Function<Object, Map<String, Long>> facts) {

    /** A call with no facts to record beside its peak. */
    public PeakCall(String benchmark, Map<String, String> params, String baselineKey,
                    Supplier<Object> payload, Function<Object, Object> call) {
        this(benchmark, params, baselineKey, payload, call, p -> Map.of());
    }
}
