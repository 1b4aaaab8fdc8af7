package hotpath.profiler;

import java.util.Arrays;

/**
 * The host-speed probe's known answers: its rounds alone, then with a thread spinning beside them.
 * Run pinned to one CPU, the spinning thread takes half of that CPU in slices of milliseconds: a
 * round, whose own work is the same, takes longer on average by the time it waits, while the
 * probe as the timed forks record it, the fastest of four rounds, finds a round that ran whole
 * between two slices. The probe reads how fast the vCPU runs while it runs (which only the host
 * changes), not how much of the CPU the JVM is given (which hotpath's busy check watches). What it
 * printed is recorded in docs/evidence/what-the-host-probe-costs.md: a measurement of the host,
 * which no test asserts (HostSpeedProfilerTest holds the reading rule by its readings).
 *
 * <p>How to run: {@code taskset -c 0 java -cp target/benchmarks.jar hotpath.profiler.HostSpeedCheck 300}
 * prints, in µs, a round's mean time and the probe's median alone, then beside the spinning thread.
 */
public final class HostSpeedCheck {

    private static volatile boolean spinning;

    private HostSpeedCheck() {
    }

    public static void main(String[] args) throws InterruptedException {
        int probes = args.length > 0 ? Integer.parseInt(args[0]) : 300;  // rounds
        new HostSpeedProfiler();  // its warmup: the probe compiled
        double alone = mean(probes);
        double aloneProbe = medianProbe(probes / HostSpeedProfiler.ROUNDS);
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
        double besideProbe = medianProbe(probes / HostSpeedProfiler.ROUNDS);
        spinning = false;
        busy.join();
        System.out.printf("round alone %.1f beside %.1f; probe alone %.1f beside %.1f%n",
                alone, beside, aloneProbe, besideProbe);
    }

    private static double medianProbe(int probes) {
        long[] t = new long[probes];
        for (int i = 0; i < probes; i++) {
            t[i] = HostSpeedProfiler.probe();
        }
        Arrays.sort(t);
        return t[probes / 2] / 1e3;
    }

    private static double mean(int probes) {
        long[] t = new long[probes];
        for (int i = 0; i < probes; i++) {
            t[i] = HostSpeedProfiler.round();
        }
        return Arrays.stream(t).average().orElse(Double.NaN) / 1e3;
    }
}
