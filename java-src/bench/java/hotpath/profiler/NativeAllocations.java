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
        eachStack(collapsed, a::add);
        return a;
    }

    /** Each line {@code frame;frame;...;frame value} of async-profiler's collapsed output. */
    static void eachStack(String collapsed, java.util.function.ObjLongConsumer<String> stack) {
        for (String line : collapsed.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space <= 0) {
                continue;
            }
            long value;
            try {
                value = Long.parseLong(line.substring(space + 1).trim());
            } catch (NumberFormatException e) {
                continue;
            }
            stack.accept(line.substring(0, space), value);
        }
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
