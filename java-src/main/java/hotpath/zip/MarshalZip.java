package hotpath.zip;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

import hotpath.jdk.MarshallerOutputStream;

/**
 * Three ways to JDK-serialize an object into a zlib stream (default Deflater level).
 *
 * <ul>
 * <li>{@link #old}: serialize to a byte-array stream (512 B, growing), trim copy; then deflate
 *     with a buffer of N bytes into a stream pre-sized to N, trim copy. The marshalled bytes,
 *     the deflate buffer and the output buffer are alive together: about 3 x N at the peak.
 *     The Deflater is never ended; its native memory waits for the Cleaner.</li>
 * <li>{@link #buffered}: serializer -> 8 KB BufferedOutputStream -> DeflaterOutputStream (512 B
 *     buffer) -> byte-array stream. The uncompressed form never exists; closing ends the
 *     Deflater.</li>
 * <li>{@link #unbuffered}: serializer -> DeflaterOutputStream directly: every ~1 KB block the
 *     serializer writes is a JNI deflate call (the write-up's rejected variant).</li>
 * <li>{@link #floor} (beyond the write-up): serializer -> {@link ZlibSink}, this thread's kept
 *     Deflater, reset per call, with an 8 KB input buffer and an output array kept at the
 *     largest size seen; the only per-call allocation of ours is the exact-size result.</li>
 * </ul>
 */
public final class MarshalZip {

    private final Supplier<Deflater> deflaters;
    // floor: one sink (Deflater and buffers) per thread, created through the supplier on first use.
    private final ThreadLocal<ZlibSink> sinks;

    /** Production: a new default Deflater per call. */
    public MarshalZip() {
        this(Deflater::new);
    }

    /** Tests pass a factory that records the Deflaters, to see which variants end them. */
    public MarshalZip(Supplier<Deflater> deflaters) {
        this.deflaters = deflaters;
        this.sinks = ThreadLocal.withInitial(() -> new ZlibSink(deflaters.get()));
    }

    public static byte[] marshal(Object obj) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        serialize(obj, out);
        return out.toByteArray();
    }

    public byte[] old(Object obj) {
        return zip(marshal(obj));
    }

    private byte[] zip(byte[] bytes) {
        Deflater deflater = deflaters.get();
        deflater.setInput(bytes);
        deflater.finish();
        byte[] buf = new byte[bytes.length];
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
        while (!deflater.finished()) {
            int n = deflater.deflate(buf);
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    public byte[] buffered(Object obj) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Deflater deflater = deflaters.get();
        try (OutputStream chain = new BufferedOutputStream(new DeflaterOutputStream(out, deflater, 512), 8192)) {
            serialize(obj, chain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deflater.end();
        }
        return out.toByteArray();
    }

    public byte[] unbuffered(Object obj) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Deflater deflater = deflaters.get();
        try (OutputStream chain = new DeflaterOutputStream(out, deflater, 512)) {
            serialize(obj, chain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deflater.end();
        }
        return out.toByteArray();
    }

    /**
     * Serializes into this thread's kept sink. Why: every other variant mallocs ~268 KB of zlib
     * state and allocates its buffers per call; floor keeps them, and allocates only the result.
     */
    public byte[] floor(Object obj) {
        ZlibSink sink = sinks.get();
        try {
            serialize(obj, sink);
            sink.close(); // serialize leaves its target open: closing finishes the zlib stream
            return sink.result();
        } finally {
            sink.reset();
        }
    }

    /** Ends this thread's kept Deflater (floor) now instead of leaving it to the Cleaner. */
    public void releaseThreadState() {
        sinks.get().end();
        sinks.remove();
    }

    /** This thread's floor sink, for tests. */
    ZlibSink threadSink() {
        return sinks.get();
    }

    /**
     * JDK-serializes the object into {@code target}, as the JDK marshaller does: through a
     * forwarding stream (16 B per call) whose close leaves {@code target} open; the caller closes
     * the chain (which finishes any deflater in it).
     */
    private static void serialize(Object obj, OutputStream target) {
        try (ObjectOutputStream oos = new ObjectOutputStream(new MarshallerOutputStream(target))) {
            oos.writeObject(obj);
            oos.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
