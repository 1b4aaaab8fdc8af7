package hotpath.marshaller;

import java.io.IOException;
import java.io.OutputStream;

/**
 * After the change: the writer's internal array [0, pos) goes straight to the stream before the
 * pooled array is released — no byte[N], no trim copy, no second name scope. A null object
 * writes a shared one-byte array (only ever passed to {@code out.write}, never handed out).
 */
public final class OptimizedMarshaller extends Marshaller {

    private static final byte[] NULL_ARR = {BinaryWriter.NULL};

    public OptimizedMarshaller(String nodeName, ArrayPool pool) {
        super(nodeName, pool);
    }

    @Override
    protected void marshal0(BinaryWritable obj, OutputStream out) throws IOException {
        if (obj == null) {
            out.write(NULL_ARR);
            return;
        }
        try (BinaryWriter writer = new BinaryWriter(pool, registry)) {
            writer.writeObject(obj);
            HeapOutputStream heap = writer.out();
            out.write(heap.internalArray(), 0, heap.position());
        }
    }
}
