package hotpath.zip;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.zip.InflaterInputStream;

/** The marshal-and-compress variants, named as the benchmarks' {@code variant} @Param. */
public enum ZipVariant {
    old {
        @Override
        public byte[] apply(MarshalZip zip, Object obj) {
            return zip.old(obj);
        }
    },
    buffered {
        @Override
        public byte[] apply(MarshalZip zip, Object obj) {
            return zip.buffered(obj);
        }
    },
    unbuffered {
        @Override
        public byte[] apply(MarshalZip zip, Object obj) {
            return zip.unbuffered(obj);
        }
    },
    /** Beyond the write-up: a kept, reset Deflater and kept buffers per thread (issue 17). */
    floor {
        @Override
        public byte[] apply(MarshalZip zip, Object obj) {
            return zip.floor(obj);
        }
    },
    /** The released old code, Ignite 2.17.0: created on first use, so other forks never load Ignite. */
    upstream {
        private UpstreamMarshalZip release;

        @Override
        public byte[] apply(MarshalZip zip, Object obj) {
            if (release == null) {
                release = new UpstreamMarshalZip();
            }
            return release.marshalZip(obj);
        }
    };

    public abstract byte[] apply(MarshalZip zip, Object obj);

    /** The zlib stream's content, read by a plain InflaterInputStream. */
    public static byte[] inflate(byte[] zlib) {
        try (InputStream in = new InflaterInputStream(new java.io.ByteArrayInputStream(zlib))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The write-up's invariant: inflate(variant) == marshal(obj) for every model. */
    public static void requireSameContent(Object obj) {
        byte[] marshalled = MarshalZip.marshal(obj);
        MarshalZip zip = new MarshalZip();
        for (ZipVariant v : values()) {
            if (v != upstream) {
                requireSameContent(v, zip, obj, marshalled);
            }
        }
    }

    /**
     * The invariant for the variant a fork times, before it times it: inflate(variant) ==
     * marshal(obj), and for the release (loading Ignite takes a second, so only in its own
     * forks) compressed bytes equal to old's. Each fork checks its own variant only: a fork of
     * LIST_1660K that checked every model took 0.6 s longer to start, and every variant timed
     * is checked in its own forks.
     */
    public static void requireSameContent(ZipVariant variant, Object obj) {
        requireSameContent(variant, new MarshalZip(), obj, MarshalZip.marshal(obj));
    }

    private static void requireSameContent(ZipVariant v, MarshalZip zip, Object obj, byte[] marshalled) {
        byte[] zipped = v.apply(zip, obj);
        if (!Arrays.equals(marshalled, inflate(zipped))) {
            throw new IllegalStateException("inflate(" + v + ") != marshal(obj); no timing is valid");
        }
        if (v == upstream && !Arrays.equals(old.apply(zip, obj), zipped)) {
            throw new IllegalStateException("the release compresses to other bytes than old; no timing is valid");
        }
    }
}
