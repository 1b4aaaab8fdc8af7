package hotpath.writer;

import java.nio.ByteBuffer;
import java.util.zip.Deflater;

/**
 * The writer after the change. The current stream is cached in {@code curStream}, refreshed only
 * where the nesting level or the buffer changes ({@code setBuffer}, {@code beforeNestedWrite},
 * {@code afterNestedWrite}). Compressed fields are serialized into a <b>heap</b> scratch buffer
 * kept at the largest size seen, by a scratch writer created once and reset per use; growth
 * copies with a single {@code put} ({@link HeapScratchWriter}). Each field is then compressed
 * into a new {@link CompressedMessage}, as the write-up does.
 */
public final class OptimizedDirectMessageWriter extends HeapScratchWriter {

    public OptimizedDirectMessageWriter(MessageFactory factory) {
        this(factory, Deflater.BEST_SPEED);
    }

    public OptimizedDirectMessageWriter(MessageFactory factory, int compressionLevel) {
        super(factory, compressionLevel, false);
    }

    @Override
    HeapScratchWriter newScratchWriter() {
        return new OptimizedDirectMessageWriter(factory(), compressionLevel());
    }

    @Override
    Message compress(ByteBuffer scratch) {
        scratch.flip();
        return new CompressedMessage(scratch, compressionLevel());
    }
}
