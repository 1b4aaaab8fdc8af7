package hotpath.profiler;

import java.util.Arrays;

/**
 * The host-speed probe's known answer: its time alone, then with a thread spinning beside it,
 * rounds back to back. Run pinned to one CPU, the spinning thread takes half of that CPU, and a
 * round, whose own work is the same, takes longer by the time it waits: a host that gives the
 * vCPU less shows in the probe's time. A test holds it to that (tests/measure/test_host_probe.py).
 *
 * <p>How to run: {@code taskset -c 0 java -cp target/benchmarks.jar hotpath.profiler.HostSpeedCheck 300}
 * prints the probe's mean time alone and beside the spinning thread, in µs.
 */
public final class HostSpeedCheck {

    private static volatile boolean spinning;

    private HostSpeedCheck() {
    }

    public static void main(String[] args) throws InterruptedException {
        int probes = args.length > 0 ? Integer.parseInt(args[0]) : 300;  // rounds
        new HostSpeedProfiler();  // its warmup: the probe compiled
        double alone = mean(probes);
        spinning = true;
        Thread busy = new Thread(() -> {
            long x = 0;
            while (spinning) {
                x += System.nanoTime() & 1;
            }
            if (x == 42) {
                System.out.print("");
            }
        }, "busy");
        busy.setDaemon(true);
        busy.start();
        double beside = mean(probes);
        spinning = false;
        busy.join();
        System.out.printf("alone %.1f beside %.1f%n", alone, beside);
    }

    private static double mean(int probes) {
        long[] t = new long[probes];
        for (int i = 0; i < probes; i++) {
            t[i] = HostSpeedProfiler.round();
        }
        return Arrays.stream(t).average().orElse(Double.NaN) / 1e3;
    }
}
