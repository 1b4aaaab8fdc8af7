package hotpath.writer;

import java.nio.ByteBuffer;
import java.util.zip.Deflater;

/**
 * Beyond the optimized writer, toward the least a compressed field must allocate: nothing per
 * message once warm. The scratch buffer and scratch writer are kept as in the optimized writer
 * ({@link HeapScratchWriter}); in addition the serialized field is deflated straight from the
 * scratch's array (no copy) with a per-thread Deflater that is reset instead of created and ended
 * (no zlib malloc), into an output array kept by the writer, whose chunks are written as ranges
 * (no chunk copies); and strings are UTF-8 encoded straight into the buffer (no byte[] per
 * string) whenever they fit.
 *
 * <p>Why: per compressed field the optimized writer still mallocs ~268 KB of zlib state, copies
 * the serialized bytes once and the compressed bytes twice, and makes a byte[] per string; the
 * price is memory held per writer and per thread (data/floors/writer.md).
 */
public final class FloorDirectMessageWriter extends HeapScratchWriter {

    private ReusableCompressedField compressed;

    public FloorDirectMessageWriter(MessageFactory factory) {
        this(factory, Deflater.BEST_SPEED);
    }

    public FloorDirectMessageWriter(MessageFactory factory, int compressionLevel) {
        super(factory, compressionLevel, true);
    }

    @Override
    HeapScratchWriter newScratchWriter() {
        return new FloorDirectMessageWriter(factory(), compressionLevel());
    }

    @Override
    Message compress(ByteBuffer scratch) {
        if (compressed == null) {
            compressed = new ReusableCompressedField();
        }
        // Straight from the scratch's array: [0, position) is the serialized field.
        return compressed.compress(scratch.array(), scratch.arrayOffset(), scratch.position(),
                compressionLevel());
    }

    /** The compressed field, for tests: one per writer, refilled per field. */
    ReusableCompressedField compressedField() {
        return compressed;
    }
}
