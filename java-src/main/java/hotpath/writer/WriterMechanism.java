package hotpath.writer;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import hotpath.mechanism.Mechanism;
import hotpath.mechanism.Mechanisms;

/** The three changes of IGNITE-28836, each of which {@link MechanismDirectMessageWriter} applies on its own. */
public enum WriterMechanism implements Mechanism {

    /** Primitive writes use a cached current stream instead of {@code state.item().stream}. */
    CACHED_STREAM("cached-stream", "an array load, a bounds check and a field load per write; no bytes"),
    /**
     * Compressed fields are serialized into a heap buffer kept at the largest size seen, grown
     * by one put, instead of a fresh 10 KB direct buffer grown through an intermediate byte[].
     */
    HEAP_SCRATCH("heap-scratch", "per compressed field a direct buffer (its heap objects, 10 KB native) and, "
            + "per growth, another direct buffer and a byte[position] copy"),
    /** The scratch writer is created once and reset per use instead of made per compressed field. */
    SCRATCH_WRITER_ONCE("scratch-writer-once", "per compressed field a writer, its state stack and the levels "
            + "the field's nested messages open");

    private final String label;
    private final String removes;

    WriterMechanism(String label, String removes) {
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

    /** The set a variant name applies to old: {@code old+heap-scratch}, {@code optimized-cached-stream}, ... */
    public static EnumSet<WriterMechanism> parse(String variant) {
        return Mechanisms.parse(WriterMechanism.class, variant);
    }

    public static String name(Set<WriterMechanism> applied) {
        return Mechanisms.name(WriterMechanism.class, applied);
    }

    /** Every combination's name: old, each alone, each pair, optimized. */
    public static List<String> everyCombination() {
        return Mechanisms.everyCombination(WriterMechanism.class);
    }
}
