package hotpath.store;

import java.nio.ByteBuffer;

/** A message's bytes as a view of the mapped commit log: start offset, view, size. */
public record SelectMappedBufferResult(long startOffset, ByteBuffer byteBuffer, int size) {
}
