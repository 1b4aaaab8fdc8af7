package hotpath.store;

import java.nio.ByteBuffer;

/**
 * A message's bytes as a view of the mapped commit log: start offset, view, size, and, as the
 * release keeps them, the file the view holds a reference on and whether it was served from the
 * page cache (40 bytes).
 */
public record SelectMappedBufferResult(long startOffset, ByteBuffer byteBuffer, int size, MappedFile mappedFile,
                                       boolean inCache) {

    /** A view not tied to a file (the benchmarks' prepared results). */
    public SelectMappedBufferResult(long startOffset, ByteBuffer byteBuffer, int size) {
        this(startOffset, byteBuffer, size, null, false);
    }
}
