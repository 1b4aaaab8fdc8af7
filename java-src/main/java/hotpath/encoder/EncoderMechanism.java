package hotpath.encoder;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import hotpath.mechanism.Mechanism;
import hotpath.mechanism.Mechanisms;

/**
 * The three changes of IGNITE-28847, each of which {@link MechanismMemcacheEncoder} applies on its
 * own. They touch different work: how the key's and value's bytes are produced, how the packet
 * is assembled from them, and whether the message is written to.
 */
public enum EncoderMechanism implements Mechanism {

    /** Key and value bytes are the encoder's own result (bytes and flag), not a ByteArrayOutputStream's. */
    DIRECT_BYTES("direct-bytes", "per key and value a ByteArrayOutputStream (24 B), its 32-byte array and "
            + "growth, and the toByteArray() copy; adds the 24-byte result record"),
    /** The packet is allocated at its exact size first: it never grows and is returned without a trim copy. */
    EXACT_SIZE("exact-size", "the 24-byte starting list, each growth's re-copy to 2 x (size + cnt), "
            + "and the trim copy (replaced by the exact array)"),
    /** The encoded bytes are not stored back into the message. */
    NO_MUTATION("no-mutation", "two reference stores into the message (and the message holding the "
            + "encoded copies); no bytes per call");

    private final String label;
    private final String removes;

    EncoderMechanism(String label, String removes) {
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

    /** The set a variant name applies to old: {@code old+exact-size}, {@code optimized-no-mutation}, ... */
    public static EnumSet<EncoderMechanism> parse(String variant) {
        return Mechanisms.parse(EncoderMechanism.class, variant);
    }

    public static String name(Set<EncoderMechanism> applied) {
        return Mechanisms.name(EncoderMechanism.class, applied);
    }

    /** Every combination's name: old, each alone, each pair, optimized. */
    public static List<String> everyCombination() {
        return Mechanisms.everyCombination(EncoderMechanism.class);
    }
}
