package hotpath.writer;

/** The implementations under test, selected by the benchmarks' {@code variant} @Param. */
public enum WriterVariant {
    old {
        @Override
        public MessageWriter newWriter() {
            return new OldDirectMessageWriter(new MessageFactory());
        }
    },
    optimized {
        @Override
        public MessageWriter newWriter() {
            return new OptimizedDirectMessageWriter(new MessageFactory());
        }
    },
    /** Beyond the write-up: per-thread Deflater, no copies of the field (issue 17). */
    floor {
        @Override
        public MessageWriter newWriter() {
            return new FloorDirectMessageWriter(new MessageFactory());
        }
    },
    /**
     * The released writer (Ignite 2.17.0), primitive path only: it writes Ignite messages, so the
     * benchmark drives it through {@link UpstreamPrimitiveWriter}, not through our interface.
     */
    upstream {
        @Override
        public MessageWriter newWriter() {
            throw new UnsupportedOperationException("the release is driven through UpstreamPrimitiveWriter");
        }
    };

    public abstract MessageWriter newWriter();

    /**
     * Fails the trial unless every variant writes exactly the bytes of the old writer, through
     * the benchmark's own buffer size.
     */
    public static void requireSameBytes(Message msg, int bufferSize) {
        byte[] expected = MessageWire.write(old.newWriter(), msg, bufferSize);
        for (WriterVariant v : values()) {
            if (v == upstream) {
                continue; // checked by UpstreamPrimitiveWriter.requireSameBytes where it runs
            }
            byte[] actual = MessageWire.write(v.newWriter(), msg, bufferSize);
            if (!java.util.Arrays.equals(expected, actual)) {
                throw new IllegalStateException(v + " writes different bytes than old ("
                        + actual.length + " vs " + expected.length + " bytes); no timing is valid");
            }
        }
    }
}
