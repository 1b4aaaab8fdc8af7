package hotpath.zip;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import hotpath.mechanism.Mechanism;
import hotpath.mechanism.Mechanisms;

/**
 * The three changes of IGNITE-28848, each of which {@link MechanismMarshalZip} applies to old on
 * its own. They are read off the mechanics the write-up describes: where the serializer's bytes
 * go, how they reach the next stage, and who frees the zlib state.
 *
 * <ul>
 * <li>{@link #STREAMED}: the serializer writes into a DeflaterOutputStream (512 B buffer) over a
 *     growing byte-array stream, so that the uncompressed form never exists: no marshal stream
 *     (512 B, grown to N by copies) and its N-byte trim copy, and, since N is then unknown, no
 *     N-byte deflate buffer and no output stream pre-sized to N; the output stream grows to the
 *     compressed size C instead. This is where the write-up's allocation figures go (old
 *     1,065,204 B/op against 283,835 at 132 KB; 9,891,984 against 1,788,235 at 1.66 MB) and
 *     where the peak live heap falls from about 3 x N (marshalled bytes, deflate buffer and
 *     output buffer alive together) to the compressed output. Alone it is the write-up's
 *     rejected unbuffered variant.</li>
 * <li>{@link #BUFFERED}: an 8 KB BufferedOutputStream between the serializer and the next
 *     stage, coalescing the serializer's ~1 KB blocks. In front of the compressor it turns
 *     many JNI deflate calls into few (why the write-up kept it, after the unbuffered variant
 *     measured 14-20% slower than old); in front of old's marshal stream it only changes how
 *     that stream grows. It adds the 8 KB array and the stream (8,256 B) per call: why the
 *     write-up's 1.6 KB payload allocates more after the patch (14,368 B/op against 12,544)
 *     and why it has a break-even near 3 KB.</li>
 * <li>{@link #ENDED}: the Deflater is ended when the call is done instead of being left to the
 *     Cleaner: its native zlib state (about 268 KB) is freed at once. No heap bytes; the
 *     difference is native memory held until a GC runs the Cleaner, and the Cleaner's work.</li>
 * </ul>
 *
 * Every combination writes the same zlib stream: zlib at the default level emits the same bytes
 * however its input is fed with NO_FLUSH (checked by the tests, not assumed).
 */
public enum ZipMechanism implements Mechanism {

    STREAMED("streamed", "the marshal stream's array and its growth to N, the N-byte trim copy, the N-byte "
            + "deflate buffer and the output stream pre-sized to N; adds the DeflaterOutputStream and its 512 B "
            + "buffer and the output's growth from 32 B to C"),
    BUFFERED("buffered", "JNI deflate calls: the serializer's ~1 KB blocks reach the next stage in 8 KB; "
            + "adds the 8 KB buffer and its stream (8,256 B) per call"),
    ENDED("ended", "the native zlib state (~268 KB) left to the Cleaner; no heap bytes");

    private final String label;
    private final String removes;

    ZipMechanism(String label, String removes) {
        this.label = label;
        this.removes = removes;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public String removes() {
        return removes;
    }

    /** The set a variant name applies to old: {@code old+streamed}, {@code optimized-ended}, ... */
    public static EnumSet<ZipMechanism> parse(String variant) {
        return Mechanisms.parse(ZipMechanism.class, variant);
    }

    /** The name of the variant that applies {@code applied} to old. */
    public static String name(Set<ZipMechanism> applied) {
        return Mechanisms.name(ZipMechanism.class, applied);
    }

    /** Every combination's name: old, each alone, each pair, optimized. */
    public static List<String> everyCombination() {
        return Mechanisms.everyCombination(ZipMechanism.class);
    }
}
