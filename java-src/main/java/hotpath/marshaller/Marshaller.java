package hotpath.marshaller;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A node-name-aware binary marshaller. Both public entry points run under the node's name
 * scope; the versions differ in {@link #marshal0(BinaryWritable, OutputStream)}.
 */
public abstract class Marshaller {

    protected final String nodeName;
    protected final ArrayPool pool;
    protected final TypeRegistry registry = new TypeRegistry();

    protected Marshaller(String nodeName, ArrayPool pool) {
        this.nodeName = nodeName;
        this.pool = pool;
    }

    public TypeRegistry registry() {
        return registry;
    }

    public ArrayPool pool() {
        return pool;
    }

    /** The object's bytes (a fresh array). */
    public byte[] marshal(BinaryWritable obj) {
        String prev = NodeNameScope.enter(nodeName);
        try {
            return marshalToArray(obj);
        } finally {
            NodeNameScope.exit(nodeName, prev);
        }
    }

    /** The object's bytes, written to {@code out}. */
    public void marshal(BinaryWritable obj, OutputStream out) throws IOException {
        String prev = NodeNameScope.enter(nodeName);
        try {
            marshal0(obj, out);
        } finally {
            NodeNameScope.exit(nodeName, prev);
        }
    }

    protected abstract void marshal0(BinaryWritable obj, OutputStream out) throws IOException;

    protected final byte[] marshalToArray(BinaryWritable obj) {
        if (obj == null) {
            return new byte[] {BinaryWriter.NULL};
        }
        try (BinaryWriter writer = new BinaryWriter(pool, registry)) {
            writer.writeObject(obj);
            return writer.array();
        }
    }
}
