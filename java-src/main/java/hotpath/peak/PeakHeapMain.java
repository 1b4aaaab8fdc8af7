package hotpath.peak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

/**
 * Peak live heap of one call, measured as the smallest {@code -Xmx} at which the call succeeds
 * in a fresh JVM, found by bisection, minus the same for the payload alone (the baseline). The
 * child JVMs use the serial collector with a 1 MB young generation, so nearly the whole heap is
 * old generation that a full collection compacts: what does not fit there is live. Every run
 * holds the same 8 MB ballast, which keeps the heaps above the JVM's own minimum and cancels in
 * the difference.
 *
 * <p>Usage: {@code PeakHeapMain <PeakCalls class> <out.json> [--resolution-pct P] [--only REGEX]}.
 * The JSON is written beside {@code out} and renamed when complete.
 */
public final class PeakHeapMain {

    static final long MB = 1024 * 1024;
    /**
     * The JVM sizes a serial-collector heap in 1 MB steps, so no bisection can resolve finer:
     * measured peaks are multiples of 1 MB and the resolution says so.
     */
    static final long MIN_RESOLUTION = MB;
    static final long START = 16 * MB;
    static final long LIMIT = 16L * 1024 * MB;
    static final String METHOD = "smallest -Xmx at which one call succeeds in a fresh JVM "
            + "(SerialGC, 1 MB young generation, bisection), minus the same for the payload alone";

    private final String callsClass;
    private final double resolutionPct;

    PeakHeapMain(String callsClass, double resolutionPct) {
        this.callsClass = callsClass;
        this.resolutionPct = resolutionPct;
    }

    /** One bisection result: the smallest heap that fit, and how close the bisection got. */
    record Fit(long xmx, long resolution) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: PeakHeapMain <PeakCalls class> <out.json> [--resolution-pct P] [--only REGEX]");
            System.exit(2);
        }
        double pct = 2.0;
        Pattern only = null;
        for (int i = 2; i < args.length; i += 2) {
            switch (args[i]) {
                case "--resolution-pct" -> pct = Double.parseDouble(args[i + 1]);
                case "--only" -> only = Pattern.compile(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        try {
            new PeakHeapMain(args[0], pct).run(Path.of(args[1]), only);
        } catch (PeakException e) {
            System.err.println("peak: " + e.getMessage());
            System.exit(1);
        }
    }

    void run(Path out, Pattern only) throws Exception {
        PeakCalls calls = (PeakCalls) Class.forName(callsClass).getDeclaredConstructor().newInstance();
        List<PeakCall> list = calls.calls();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
        Map<String, Future<Fit>> baselines = new ConcurrentHashMap<>();
        List<Future<Fit>> fits = new ArrayList<>();
        List<Integer> chosen = new ArrayList<>();
        try {
            for (int i = 0; i < list.size(); i++) {
                PeakCall c = list.get(i);
                if (only != null && !only.matcher(c.params().toString()).find()) {
                    continue;
                }
                int index = i;
                chosen.add(i);
                baselines.computeIfAbsent(c.baselineKey(), k -> pool.submit(() -> smallestHeap(index, "baseline")));
                fits.add(pool.submit(() -> smallestHeap(index, "call")));
            }
            StringBuilder json = new StringBuilder("[\n");
            for (int j = 0; j < chosen.size(); j++) {
                PeakCall c = list.get(chosen.get(j));
                Fit call = get(fits.get(j));
                Fit base = get(baselines.get(c.baselineKey()));
                json.append(j == 0 ? "" : ",\n").append(entry(c, call, base, c.facts().apply(c.payload().get())));
            }
            json.append("\n]\n");
            Path partial = out.resolveSibling(out.getFileName() + ".partial");
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(partial, json, StandardCharsets.UTF_8);
            Files.move(partial, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            pool.shutdownNow();
        }
    }

    private static Fit get(Future<Fit> f) throws Exception {
        try {
            return f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof PeakException pe) {
                throw pe;
            }
            throw e;
        }
    }

    static String entry(PeakCall c, Fit call, Fit base, Map<String, Long> facts) {
        StringBuilder params = new StringBuilder("{");
        new java.util.TreeMap<>(c.params()).forEach((k, v) -> params.append(params.length() > 1 ? ", " : "")
                .append(quote(k)).append(": ").append(quote(v)));
        params.append("}");
        StringBuilder factsJson = new StringBuilder("{");
        new java.util.TreeMap<>(facts).forEach((k, v) -> factsJson.append(factsJson.length() > 1 ? ", " : "")
                .append(quote(k)).append(": ").append(v));
        factsJson.append("}");
        return "  {\"benchmark\": " + quote(c.benchmark()) + ", \"params\": " + params
                + ", \"peakBytes\": " + Math.max(0, call.xmx() - base.xmx())
                + ", \"baselineBytes\": " + base.xmx() + ", \"xmxBytes\": " + call.xmx()
                + ", \"resolutionBytes\": " + (call.resolution() + base.resolution())
                + ", \"facts\": " + factsJson + ", \"method\": " + quote(METHOD) + "}";
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    long resolution(long heap) {
        long r = (long) (heap * resolutionPct / 100);
        return Math.max(MIN_RESOLUTION, r - r % MIN_RESOLUTION);
    }

    /** Bisection on -Xmx: the smallest heap (within the resolution) at which the child fits. */
    Fit smallestHeap(int index, String mode) throws IOException, InterruptedException {
        long lo = 0;
        long hi = START;
        while (!fits(index, mode, hi)) {
            lo = hi;
            hi *= 2;
            if (hi > LIMIT) {
                throw new PeakException(mode + " of call " + index + " does not fit in " + LIMIT / MB + " MB");
            }
        }
        while (hi - lo > resolution(hi)) {
            long mid = (lo + hi) / 2 / MIN_RESOLUTION * MIN_RESOLUTION;
            if (mid <= lo || mid >= hi) {
                break;
            }
            if (fits(index, mode, mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return new Fit(hi, hi - lo);
    }

    boolean fits(int index, String mode, long heap) throws IOException, InterruptedException {
        String kb = heap / 1024 + "k";
        Process p = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms" + kb, "-Xmx" + kb, "-XX:+UseSerialGC", "-XX:NewSize=1m", "-XX:MaxNewSize=1m",
                "-XX:-UseGCOverheadLimit", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                // the released Ignite code some calls run reads java.nio.Buffer.address
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"),
                PeakHeapChild.class.getName(), callsClass, Integer.toString(index), mode)
                .redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        int rc = p.waitFor();
        if (rc == PeakHeapChild.FIT) {
            return true;
        }
        if (rc == PeakHeapChild.OUT_OF_MEMORY || heap <= PeakHeapChild.BALLAST && rc == 1) {
            // A heap below the ballast may not even start the JVM: it does not fit either way.
            return false;
        }
        throw new PeakException(mode + " of call " + index + " failed at -Xmx" + kb + " (exit " + rc + "): "
                + new String(output, StandardCharsets.UTF_8).strip().lines().findFirst().orElse(""));
    }

    /** A measurement that cannot be made; the message is the whole explanation. */
    static final class PeakException extends RuntimeException {
        PeakException(String message) {
            super(message);
        }
    }
}
