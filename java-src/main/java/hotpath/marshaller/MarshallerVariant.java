package hotpath.marshaller;

import java.io.IOException;
import java.util.Arrays;

/** The implementations under test, selected by the benchmarks' {@code variant} @Param. */
public enum MarshallerVariant {
    old {
        @Override
        public Marshaller create(String nodeName, ArrayPool pool) {
            return new OldMarshaller(nodeName, pool);
        }
    },
    optimized {
        @Override
        public Marshaller create(String nodeName, ArrayPool pool) {
            return new OptimizedMarshaller(nodeName, pool);
        }
    },
    /** Beyond the write-up: a writer per thread, reopened; strings encoded in place (issue 17). */
    floor {
        @Override
        public Marshaller create(String nodeName, ArrayPool pool) {
            return new FloorMarshaller(nodeName, pool);
        }
    },
    /**
     * The released old path, Ignite 2.17.0, in its own binary format: it marshals the order
     * {@link UpstreamMarshaller#sameSize} gives, as long in its format as the model's order in ours.
     */
    upstream {
        @Override
        public Marshaller create(String nodeName, ArrayPool pool) {
            return new UpstreamMarshaller(nodeName, pool);
        }

        @Override
        public BinaryWritable payload(Marshaller marshaller, Order order) {
            return ((UpstreamMarshaller) marshaller).sameSize(order, old.create("n", new ArrayPool()).marshal(order).length);
        }
    };

    public abstract Marshaller create(String nodeName, ArrayPool pool);

    /** What this variant's marshaller marshals for the models' {@code order}: the order itself. */
    public BinaryWritable payload(Marshaller marshaller, Order order) {
        return order;
    }

    /** Fails the trial unless every model streams exactly {@code marshal(obj)}. */
    public static void requireSameBytes(BinaryWritable obj) {
        byte[] expected = old.create("n", new ArrayPool()).marshal(obj);
        for (MarshallerVariant v : values()) {
            if (v == upstream) {
                continue;
            }
            ByteSink sink = new ByteSink(16);
            try {
                v.create("n", new ArrayPool()).marshal(obj, sink);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            if (!Arrays.equals(expected, sink.toByteArray())) {
                throw new IllegalStateException(v + " streams different bytes than marshal(obj); no timing is valid");
            }
        }
    }

    /**
     * As {@link #requireSameBytes(BinaryWritable)}, and in the release's own forks (loading Ignite
     * takes a second): the release streams exactly its own {@code marshal(obj)}, as many bytes as
     * the models, which it reads back to the order.
     */
    public static void requireSameBytes(MarshallerVariant variant, Order order) {
        requireSameBytes(order);
        if (variant == upstream) {
            UpstreamMarshaller release = new UpstreamMarshaller("n", new ArrayPool());
            int length = old.create("n", new ArrayPool()).marshal(order).length;
            release.requireFaithful(release.sameSize(order, length), length);
        }
    }
}
