package hotpath.marshaller;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Set;

/**
 * The old marshal-to-stream path with any set of IGNITE-28835's mechanisms applied: the empty set
 * performs {@link OldMarshaller}'s allocations and copies, the full set
 * {@link OptimizedMarshaller}'s, and each mechanism alone removes only its own work, so that the
 * old-to-optimized change can be split among them. Every set streams the same bytes.
 */
public final class MechanismMarshaller extends Marshaller {

    private static final byte[] NULL_ARR = {BinaryWriter.NULL};

    private final boolean trimless;
    private final boolean oneScope;
    private final boolean sharedNull;

    public MechanismMarshaller(String nodeName, ArrayPool pool, Set<MarshallerMechanism> applied) {
        super(nodeName, pool);
        trimless = applied.contains(MarshallerMechanism.TRIMLESS);
        oneScope = applied.contains(MarshallerMechanism.ONE_SCOPE);
        sharedNull = applied.contains(MarshallerMechanism.SHARED_NULL);
    }

    /** The marshaller of a variant name: {@code old}, {@code old+trimless}, {@code optimized-one-scope}, ... */
    public static MechanismMarshaller of(String variant, String nodeName, ArrayPool pool) {
        return new MechanismMarshaller(nodeName, pool, MarshallerMechanism.parse(variant));
    }

    @Override
    protected void marshal0(BinaryWritable obj, OutputStream out) throws IOException {
        if (!oneScope && !trimless) {
            // Old's shape: a second scope around making the array, the array written after it.
            out.write(sharedNull ? arrayOrSharedNull(obj) : marshal(obj));
            return;
        }
        if (oneScope) {
            stream(obj, out);
            return;
        }
        // The second scope that old's call of the public marshal(obj) enters.
        String prev = NodeNameScope.enter(nodeName);
        try {
            stream(obj, out);
        } finally {
            NodeNameScope.exit(nodeName, prev);
        }
    }

    /** The public marshal(obj) but for a null object's array, shared: it only goes to out.write. */
    private byte[] arrayOrSharedNull(BinaryWritable obj) {
        String prev = NodeNameScope.enter(nodeName);
        try {
            return obj == null ? NULL_ARR : marshalToArray(obj);
        } finally {
            NodeNameScope.exit(nodeName, prev);
        }
    }

    private void stream(BinaryWritable obj, OutputStream out) throws IOException {
        if (obj == null) {
            out.write(sharedNull ? NULL_ARR : new byte[] {BinaryWriter.NULL});
            return;
        }
        if (!trimless) {
            out.write(marshalToArray(obj)); // the trim copy, written after the pooled array's release
            return;
        }
        try (BinaryWriter writer = new BinaryWriter(pool, registry)) {
            writer.writeObject(obj);
            HeapOutputStream heap = writer.out();
            out.write(heap.internalArray(), 0, heap.position());
        }
    }
}
