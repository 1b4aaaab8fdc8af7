package hotpath.marshaller;

import java.util.EnumSet;
import java.util.List;

import hotpath.mechanism.Mechanism;
import hotpath.mechanism.Mechanisms;

/** The three changes of IGNITE-28835, each of which {@link MechanismMarshaller} applies on its own. */
public enum MarshallerMechanism implements Mechanism {

    /** The writer's internal array [0, pos) goes to the stream before the pooled array is released. */
    TRIMLESS("trimless", "the trim copy byte[N] (16 + N bytes, N bytes copied) per marshalled object"),
    /** marshal0 streams directly instead of through the public marshal(obj) and its own scope. */
    ONE_SCOPE("one-scope", "the second node-name scope: two ThreadLocal accesses per call, no bytes"),
    /** A null object writes a shared one-byte array. */
    SHARED_NULL("shared-null", "the byte[1] {0x65} (24 bytes) per null object");

    private final String label;
    private final String removes;

    MarshallerMechanism(String label, String removes) {
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

    /** The set a variant name applies to old: {@code old+trimless}, {@code optimized-one-scope}, ... */
    public static EnumSet<MarshallerMechanism> parse(String variant) {
        return Mechanisms.parse(MarshallerMechanism.class, variant);
    }

    /** The name of the variant that applies {@code applied} to old. */
    public static String name(java.util.Set<MarshallerMechanism> applied) {
        return Mechanisms.name(MarshallerMechanism.class, applied);
    }

    /** Every combination's name: old, each alone, each pair, optimized. */
    public static List<String> everyCombination() {
        return Mechanisms.everyCombination(MarshallerMechanism.class);
    }
}
