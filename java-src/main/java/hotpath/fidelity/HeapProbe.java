package hotpath.fidelity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Heap bytes per call measured in a fresh JVM, one side per JVM, as a JMH fork measures it. For
 * paths whose allocation depends on what C2 makes of them (escape analysis of a short-lived
 * view, string concatenation merged into one exact-size array), a JVM that has compiled other
 * code first, as a test runner has, can keep allocations a benchmark fork would not, and
 * differently for the release and the model.
 *
 * <p>Even a fresh JVM settles in one of a few states (on the small encoder payloads, 416 B or
 * 464 B per call, whichever of its temporaries C2 happens to scalar-replace), for the release
 * and the model alike; {@link #inFreshJvms} takes the least of a few JVMs, the state both reach.
 *
 * <p>The operation is built in the child by a factory class with a public no-argument
 * constructor, given one string argument.
 */
public final class HeapProbe {

    private HeapProbe() {
    }

    /** The least heap bytes per call of {@code factory.apply(arg)} over {@code jvms} fresh JVMs. */
    public static double inFreshJvms(int jvms, Class<? extends Function<String, Supplier<?>>> factory, String arg,
                                     int warmup, int calls) {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < jvms; i++) {
            best = Math.min(best, inFreshJvm(factory, arg, warmup, calls));
        }
        return best;
    }

    /**
     * The least heap bytes per call of the release's and the model's operation, each over at least
     * {@code jvms} fresh JVMs and, while the two disagree ({@link HeapPerCall#agree}), over one more
     * each, up to {@code most}: which state a fresh JVM settles in first is chance (a consume-queue
     * put of the release stayed at 207.5 B against 160 B in two JVMs running, once in many runs),
     * and a side that never reaches the other's state still disagrees after {@code most}.
     * Returns {release, model}.
     */
    public static double[] leastOfBoth(int jvms, int most, Class<? extends Function<String, Supplier<?>>> release,
                                       Class<? extends Function<String, Supplier<?>>> model, String arg,
                                       int warmup, int calls) {
        double r = inFreshJvms(jvms, release, arg, warmup, calls);
        double m = inFreshJvms(jvms, model, arg, warmup, calls);
        for (int n = jvms; n < most && !HeapPerCall.agree(r, m); n++) {
            r = Math.min(r, inFreshJvm(release, arg, warmup, calls));
            m = Math.min(m, inFreshJvm(model, arg, warmup, calls));
        }
        return new double[] {r, m};
    }

    /**
     * Heap bytes per call of {@code factory.apply(arg)} in a fresh interpreted JVM ({@code -Xint}):
     * every allocation the code performs, none removed by escape analysis, the same in every run.
     */
    public static double interpreted(Class<? extends Function<String, Supplier<?>>> factory, String arg, int calls) {
        return inFreshJvm(factory, arg, 100, calls, "-Xint");
    }

    /** Heap bytes per call of {@code factory.apply(arg)}, in a fresh JVM. */
    public static double inFreshJvm(Class<? extends Function<String, Supplier<?>>> factory, String arg,
                                    int warmup, int calls, String... jvmArgs) {
        List<String> cmd = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms512m", "-Xmx512m", "--add-opens=java.base/java.nio=ALL-UNNAMED"));
        cmd.addAll(List.of(jvmArgs));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), HeapProbe.class.getName(),
                factory.getName(), arg, Integer.toString(warmup), Integer.toString(calls)));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("heap probe failed: " + out);
            }
            String[] lines = out.split("\\R");
            return Double.parseDouble(lines[lines.length - 1]);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start a heap probe", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Usage: {@code HeapProbe <factory class> <arg> <warmup> <calls>}; prints bytes per call. */
    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws ReflectiveOperationException {
        Function<String, Supplier<?>> factory = (Function<String, Supplier<?>>) Class.forName(args[0])
                .getConstructor().newInstance();
        Supplier<?> call = factory.apply(args[1]);
        int warmup = Integer.parseInt(args[2]);
        int calls = Integer.parseInt(args[3]);
        double best = HeapPerCall.measure(call, warmup, calls);
        for (int round = 0; round < 2; round++) {
            best = Math.min(best, HeapPerCall.measure(call, 0, calls));
        }
        System.out.println(best);
    }
}
