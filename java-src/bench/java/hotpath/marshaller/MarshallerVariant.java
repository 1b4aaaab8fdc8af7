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
    };

    public abstract Marshaller create(String nodeName, ArrayPool pool);

    /** Fails the trial unless every variant streams exactly {@code marshal(obj)}. */
    public static void requireSameBytes(BinaryWritable obj) {
        byte[] expected = old.create("n", new ArrayPool()).marshal(obj);
        for (MarshallerVariant v : values()) {
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
}
