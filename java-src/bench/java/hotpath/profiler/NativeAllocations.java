package hotpath.profiler;

/**
 * Native bytes from async-profiler's collapsed {@code nativemem} output, split by what asked
 * for them. Only stacks that pass through the benchmark's own code ({@code hotpath/...} frames)
 * count: JIT compiler, GC and JMH harness mallocs are not the benchmark's.
 */
public final class NativeAllocations {

    private long direct;
    private long zlib;
    private long other;

    /** Parses lines {@code frame;frame;...;frame bytes}. */
    public static NativeAllocations parse(String collapsed) {
        NativeAllocations a = new NativeAllocations();
        for (String line : collapsed.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space <= 0) {
                continue;
            }
            long bytes;
            try {
                bytes = Long.parseLong(line.substring(space + 1).trim());
            } catch (NumberFormatException e) {
                continue;
            }
            a.add(line.substring(0, space), bytes);
        }
        return a;
    }

    void add(String stack, long bytes) {
        if (!stack.contains("hotpath/") && !stack.contains("hotpath.")) {
            return;
        }
        if (stack.contains("DirectByteBuffer.<init>") || stack.contains("ByteBuffer.allocateDirect")) {
            direct += bytes;
        } else if (stack.contains("zip/Deflater") || stack.contains("zip/Inflater")
                || stack.contains("zip.Deflater") || stack.contains("zip.Inflater")
                || stack.contains("deflateInit") || stack.contains("inflateInit")) {
            zlib += bytes;
        } else {
            other += bytes;
        }
    }

    public long direct() {
        return direct;
    }

    public long zlib() {
        return zlib;
    }

    public long other() {
        return other;
    }

    public long total() {
        return direct + zlib + other;
    }
}
