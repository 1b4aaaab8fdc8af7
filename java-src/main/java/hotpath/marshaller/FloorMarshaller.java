package hotpath.marshaller;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Beyond the optimized marshaller: marshal-to-stream with no allocation at all once warm. As in
 * the optimized version the writer's internal array goes straight to the stream; in addition the
 * binary writer (and its output stream) is one per thread, reopened per object instead of made
 * anew, and strings are encoded into the output instead of through getBytes. A marshal nested in
 * another on the same thread finds the thread's writer busy and uses a fresh one, as the pool
 * does for its array.
 *
 * <p>Why: the optimized path still allocates a BinaryWriter, a HeapOutputStream and each
 * string's byte[] per call (72 B per Order here); the stream API needs none of them.
 */
public final class FloorMarshaller extends Marshaller {

    private static final byte[] NULL_ARR = {BinaryWriter.NULL};

    private final ThreadLocal<BinaryWriter> writers = new ThreadLocal<>();

    public FloorMarshaller(String nodeName, ArrayPool pool) {
        super(nodeName, pool);
    }

    @Override
    protected void marshal0(BinaryWritable obj, OutputStream out) throws IOException {
        if (obj == null) {
            out.write(NULL_ARR);
            return;
        }
        BinaryWriter writer = writers.get();
        if (writer == null) {
            writer = BinaryWriter.reusable(pool, registry);
            writers.set(writer);
        } else if (writer.isOpen()) {
            writer = BinaryWriter.reusable(pool, registry); // nested on this thread: the kept one is busy
        } else {
            writer.reopen();
        }
        try {
            writer.writeObject(obj);
            HeapOutputStream heap = writer.out();
            out.write(heap.internalArray(), 0, heap.position());
        } finally {
            writer.close();
        }
    }
}
