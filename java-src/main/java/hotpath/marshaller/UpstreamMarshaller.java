package hotpath.marshaller;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.internal.binary.BinaryContext;
import org.apache.ignite.internal.binary.BinaryMarshaller;
import org.apache.ignite.internal.binary.BinaryNoopMetadataHandler;
import org.apache.ignite.lang.IgnitePredicate;
import org.apache.ignite.logger.NullLogger;
import org.apache.ignite.marshaller.MarshallerContext;
import org.apache.ignite.marshaller.jdk.JdkMarshaller;

/**
 * The released old path, Apache Ignite 2.17.0: {@code BinaryMarshaller.marshal(obj, out)}, whose
 * {@code marshal0} calls the public {@code marshal(obj)} (a second name scope, a trim copy) and
 * then {@code out.write(arr)}. The release writes our {@link Order} by reflection in Ignite's own
 * binary format (field type bytes, a footer of field offsets), so {@link #sameSize} gives the
 * order whose release bytes are exactly as long as the model's bytes of a given order: the byte[N]
 * each call allocates and copies is then of the same N on both sides. The release keeps its
 * array pool per thread on its own; the {@link ArrayPool} passed in is not used.
 */
public final class UpstreamMarshaller extends Marshaller {

    private final BinaryMarshaller release = new BinaryMarshaller();

    public UpstreamMarshaller(String nodeName, ArrayPool pool) {
        super(nodeName, pool);
        IgniteConfiguration cfg = new IgniteConfiguration();
        release.setContext(new ClassNames());
        release.setBinaryContext(new BinaryContext(BinaryNoopMetadataHandler.instance(), cfg, new NullLogger()), cfg);
        release.nodeName(nodeName);
    }

    @Override
    public byte[] marshal(BinaryWritable obj) {
        try {
            return release.marshal(obj);
        } catch (IgniteCheckedException e) {
            throw new IllegalStateException("the release failed to marshal", e);
        }
    }

    @Override
    public void marshal(BinaryWritable obj, OutputStream out) {
        try {
            release.marshal(obj, out);
        } catch (IgniteCheckedException e) {
            throw new IllegalStateException("the release failed to marshal", e);
        }
    }

    @Override
    protected void marshal0(BinaryWritable obj, OutputStream out) throws IOException {
        marshal(obj, out);
    }

    /** The release's reading of its own bytes. */
    public Object unmarshal(byte[] bytes) {
        try {
            return release.unmarshal(bytes, Order.class.getClassLoader());
        } catch (IgniteCheckedException e) {
            throw new IllegalStateException("the release failed to unmarshal", e);
        }
    }

    /**
     * The order with {@code model}'s id, timestamp and name and a prefix of its blob, sized so that
     * the release marshals it to exactly as many bytes as the models marshal {@code model}.
     */
    public Order sameSize(Order model, int modelLength) {
        int blob = model.blob.length;
        for (int attempt = 0; attempt < 4 && blob >= 0 && blob <= model.blob.length; attempt++) {
            Order candidate = new Order(model.id, model.timestamp, model.name,
                    Arrays.copyOf(model.blob, blob), null);
            int length = marshal(candidate).length;
            if (length == modelLength) {
                return candidate;
            }
            blob -= length - modelLength;
        }
        throw new IllegalArgumentException("no order marshals to exactly " + modelLength
                + " bytes in the release's format");
    }

    /** Fails unless the release streams exactly its marshal(obj), reads it back, and it is {@code length} long. */
    public void requireFaithful(Order obj, int length) {
        byte[] expected = marshal(obj);
        ByteSink sink = new ByteSink(16);
        marshal(obj, sink);
        if (!Arrays.equals(expected, sink.toByteArray())) {
            throw new IllegalStateException("the release streams other bytes than its marshal(obj)");
        }
        if (expected.length != length) {
            throw new IllegalStateException("the release's bytes are " + expected.length
                    + " long, the model's " + length + ": B/op would not compare");
        }
        Object back = unmarshal(expected);
        if (!(back instanceof Order o) || o.id != obj.id || o.timestamp != obj.timestamp
                || !o.name.equals(obj.name) || !Arrays.equals(o.blob, obj.blob) || o.nested != null) {
            throw new IllegalStateException("the release's bytes do not read back to the order");
        }
    }

    /** Class names by type id, as a cluster's marshaller context keeps them, without a cluster. */
    private static final class ClassNames implements MarshallerContext {

        private final Map<Integer, String> names = new ConcurrentHashMap<>();
        private final JdkMarshaller jdk = new JdkMarshaller();

        @Override
        public boolean registerClassName(byte platformId, int typeId, String clsName) {
            names.put(typeId, clsName);
            return true;
        }

        @Override
        public boolean registerClassNameLocally(byte platformId, int typeId, String clsName) {
            return registerClassName(platformId, typeId, clsName);
        }

        @Override
        public Class<?> getClass(int typeId, ClassLoader ldr) throws ClassNotFoundException {
            return Class.forName(getClassName((byte) 0, typeId), false, ldr);
        }

        @Override
        public String getClassName(byte platformId, int typeId) throws ClassNotFoundException {
            String name = names.get(typeId);
            if (name == null) {
                throw new ClassNotFoundException("type id " + typeId);
            }
            return name;
        }

        @Override
        public boolean isSystemType(String typeName) {
            return false;
        }

        @Override
        public IgnitePredicate<String> classNameFilter() {
            return null;
        }

        @Override
        public JdkMarshaller jdkMarshaller() {
            return jdk;
        }
    }
}
