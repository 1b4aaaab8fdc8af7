package hotpath.zip;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.function.Supplier;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

import hotpath.jdk.MarshallerOutputStream;

/**
 * marshalZip with any set of IGNITE-28848's mechanisms ({@link ZipMechanism}) applied to old: the
 * empty set performs {@link MarshalZip#old}'s allocations and copies, the full set
 * {@link MarshalZip#buffered}'s (the write-up's change), and {@code old+streamed} is
 * {@link MarshalZip#unbuffered} with old's Deflater left to the Cleaner. Every set writes old's
 * zlib stream.
 */
public final class MechanismMarshalZip {

    static final int BUFFER = 8192;
    static final int DEFLATE_BUFFER = 512;
    static final int MARSHAL_INITIAL = 512;

    private final Supplier<Deflater> deflaters;
    private final boolean streamed;
    private final boolean buffered;
    private final boolean ended;

    public MechanismMarshalZip(Set<ZipMechanism> applied) {
        this(applied, Deflater::new);
    }

    /** Tests pass a factory that records the Deflaters, to see which sets end them. */
    public MechanismMarshalZip(Set<ZipMechanism> applied, Supplier<Deflater> deflaters) {
        this.deflaters = deflaters;
        streamed = applied.contains(ZipMechanism.STREAMED);
        buffered = applied.contains(ZipMechanism.BUFFERED);
        ended = applied.contains(ZipMechanism.ENDED);
    }

    /** The model of a variant name: {@code old}, {@code old+streamed}, {@code optimized-ended}, ... */
    public static MechanismMarshalZip of(String variant) {
        return new MechanismMarshalZip(ZipMechanism.parse(variant));
    }

    public byte[] marshalZip(Object obj) {
        return streamed ? streamed(obj) : marshalThenZip(obj);
    }

    /** Serializer (-> 8 KB buffer) -> DeflaterOutputStream (512 B) -> a byte-array stream growing to C. */
    private byte[] streamed(Object obj) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Deflater deflater = deflaters.get();
        OutputStream deflating = new DeflaterOutputStream(out, deflater, DEFLATE_BUFFER);
        try (OutputStream chain = buffered ? new BufferedOutputStream(deflating, BUFFER) : deflating) {
            serialize(obj, chain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (ended) {
                deflater.end();
            }
        }
        return out.toByteArray();
    }

    /** Old's shape: the marshalled byte[N] (through the 8 KB buffer if buffered), then zipped with N-sized buffers. */
    private byte[] marshalThenZip(Object obj) {
        ByteArrayOutputStream marshalled = new ByteArrayOutputStream(MARSHAL_INITIAL);
        if (buffered) {
            OutputStream chain = new BufferedOutputStream(marshalled, BUFFER);
            serialize(obj, chain);
            try {
                chain.flush(); // serialize flushes already; the stream's bytes are all in marshalled
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            serialize(obj, marshalled);
        }
        byte[] bytes = marshalled.toByteArray();
        Deflater deflater = deflaters.get();
        try {
            deflater.setInput(bytes);
            deflater.finish();
            byte[] buf = new byte[bytes.length];
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
            while (!deflater.finished()) {
                int n = deflater.deflate(buf);
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } finally {
            if (ended) {
                deflater.end();
            }
        }
    }

    /** As {@link MarshalZip}: through the JDK marshaller's forwarding stream; the target is left open. */
    private static void serialize(Object obj, OutputStream target) {
        try (ObjectOutputStream oos = new ObjectOutputStream(new MarshallerOutputStream(target))) {
            oos.writeObject(obj);
            oos.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
