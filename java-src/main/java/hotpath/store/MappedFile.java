package hotpath.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real memory-mapped file (commit log or consume queue segment). Old and optimized differ in
 * how they cut views of the mapping: two {@code slice()} calls per select and one per append,
 * against one view per select and one cached append view.
 */
public final class MappedFile implements AutoCloseable {

    private final Path path;
    private final FileChannel channel;
    private final MappedByteBuffer mapped;
    private final long fileFromOffset;
    private final boolean optimized;
    private ByteBuffer appendSlice; // optimized: created once, repositioned per append
    private int wrotePosition;
    // References held on the file (1 for the file itself, +1 per selected view not yet released),
    // and selects since the mapping was last swapped: the release counts both on every select.
    private final AtomicLong refCount = new AtomicLong(1);
    private long accessCountSinceLastSwap;

    public MappedFile(Path path, int size, long fileFromOffset, boolean optimized) {
        this.path = path;
        this.fileFromOffset = fileFromOffset;
        this.optimized = optimized;
        try {
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static MappedFile temporary(int size, boolean optimized) {
        try {
            Path file = Files.createTempFile("hotpath-store-", ".mapped");
            file.toFile().deleteOnExit();
            return new MappedFile(file, size, 0, optimized);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int capacity() {
        return mapped.capacity();
    }

    public int wrotePosition() {
        return wrotePosition;
    }

    public void rewind() {
        wrotePosition = 0;
    }

    /** Appends the bytes at the write position; false when the file is full. */
    public boolean append(byte[] data) {
        return append(data, 0, data.length);
    }

    public boolean append(byte[] data, int off, int len) {
        if (wrotePosition + len > mapped.capacity()) {
            return false;
        }
        if (optimized) {
            appendThroughCachedView(data, off, len);
        } else {
            // As the release appends: a fresh view that goes nowhere else, which C2 may
            // scalar-replace (kept apart from the cached view, whose merge would prevent it).
            ByteBuffer view = mapped.slice();
            view.position(wrotePosition);
            view.put(data, off, len);
        }
        wrotePosition += len;
        return true;
    }

    private void appendThroughCachedView(byte[] data, int off, int len) {
        if (appendSlice == null) {
            appendSlice = mapped.slice();
        }
        appendSlice.position(wrotePosition);
        appendSlice.put(data, off, len);
    }

    /** Writes at an absolute position (consume-queue entries go to cqOffset x 20). */
    public void put(int position, ByteBuffer src) {
        mapped.put(position, src, src.position(), src.remaining());
        wrotePosition = Math.max(wrotePosition, position + src.remaining());
    }

    /**
     * A view of [pos, pos + size) with position 0 and limit size. Old: slice, position, slice
     * again, limit (two DirectByteBuffers). Optimized: one absolute {@code slice(pos, size)}: a
     * duplicate positioned and limited would be one object too, but would report position pos,
     * not 0, to callers.
     */
    public SelectMappedBufferResult selectMappedBuffer(int pos, int size) {
        hold();
        ByteBuffer view;
        if (optimized) {
            view = mapped.slice(pos, size);
        } else {
            ByteBuffer whole = mapped.slice();
            whole.position(pos);
            view = whole.slice();
            view.limit(size);
        }
        return new SelectMappedBufferResult(fileFromOffset + pos, view, size, this, false);
    }

    /** Takes a reference on the file for a selected view (released when the pull is done). */
    private void hold() {
        refCount.getAndIncrement();
        accessCountSinceLastSwap++;
    }

    /** References held: 1 for the file, plus one per selected view not yet released. */
    public long references() {
        return refCount.get();
    }

    public byte[] bytes(int pos, int len) {
        byte[] out = new byte[len];
        mapped.get(pos, out);
        return out;
    }

    @Override
    public void close() {
        try {
            channel.close();
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
