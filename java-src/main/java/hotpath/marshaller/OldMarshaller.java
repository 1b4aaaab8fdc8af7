package hotpath.marshaller;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Before the change: marshalling to a stream goes through the public {@code marshal(obj)} — a
 * second name scope, a trim copy byte[N] of the writer's array, the pooled array released —
 * and then {@code out.write(arr)} copies the N bytes again.
 */
public final class OldMarshaller extends Marshaller {

    public OldMarshaller(String nodeName, ArrayPool pool) {
        super(nodeName, pool);
    }

    @Override
    protected void marshal0(BinaryWritable obj, OutputStream out) throws IOException {
        byte[] arr = marshal(obj);
        out.write(arr);
    }
}
