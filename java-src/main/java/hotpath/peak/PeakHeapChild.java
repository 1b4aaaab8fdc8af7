package hotpath.peak;

import java.util.List;

/**
 * Runs in a child JVM of a fixed heap size: builds one call's payload and, unless asked for the
 * baseline, runs the call once. Exit 0: it fit; 3: OutOfMemoryError; 4: any other failure.
 */
public final class PeakHeapChild {

    static final int FIT = 0;
    static final int OUT_OF_MEMORY = 3;
    static final int FAILED = 4;

    /** Keeps the payload and result reachable until the call is over. */
    static volatile Object keep;

    /**
     * Held by every run, call and baseline alike, so that each measurement sits well above the
     * smallest heap a JVM starts with; it cancels out in call minus baseline.
     */
    static final int BALLAST = 8 * 1024 * 1024;
    static volatile byte[] ballast;

    private PeakHeapChild() {
    }

    public static void main(String[] args) {
        try {
            PeakCalls calls = (PeakCalls) Class.forName(args[0]).getDeclaredConstructor().newInstance();
            List<PeakCall> list = calls.calls();
            PeakCall call = list.get(Integer.parseInt(args[1]));
            ballast = new byte[BALLAST];
            Object payload = call.payload().get();
            keep = payload;
            if (args[2].equals("call")) {
                keep = new Object[] {payload, call.call().apply(payload)};
            }
            System.exit(FIT);
        } catch (OutOfMemoryError e) {
            keep = null;
            System.exit(OUT_OF_MEMORY);
        } catch (Throwable t) {
            keep = null;
            // An OutOfMemoryError can surface wrapped, e.g. when try-with-resources suppresses
            // the JVM's preallocated instance into itself.
            System.exit(causedByOutOfMemory(t) ? OUT_OF_MEMORY : failed(t));
        }
    }

    static boolean causedByOutOfMemory(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError) {
                return true;
            }
            for (Throwable s : c.getSuppressed()) {
                if (s instanceof OutOfMemoryError) {
                    return true;
                }
            }
        }
        return false;
    }

    private static int failed(Throwable t) {
        System.err.println(t);
        return FAILED;
    }
}
