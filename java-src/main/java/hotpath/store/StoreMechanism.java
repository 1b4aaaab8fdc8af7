package hotpath.store;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import hotpath.mechanism.Mechanism;
import hotpath.mechanism.Mechanisms;

/**
 * The five changes of RocketMQ PR #10526, each of which {@link MechanismStore} applies to old on
 * its own. Five touch five different objects of the put-dispatch-pull path, so each is measured
 * alone and taken back ({@link Mechanisms#aloneAndTakenBack}: 12 variants) rather than in all 32
 * combinations.
 */
public enum StoreMechanism implements Mechanism {

    /** GetMessageResult keeps queue offsets in a long[] sized to the pull (at most 256). */
    PRIMITIVE_OFFSETS("primitive-offsets", "per pull the offsets' ArrayList (24 B) and its Object[100] (416 B), "
            + "and a 24-byte Long per offset past the Long cache; adds the long[] of the pull's size"),
    /** One DispatchRequest per thread, every field reset per message. */
    REUSED_REQUEST("reused-request", "a DispatchRequest (112 B) per dispatched message"),
    /** One duplicate-like view per selected buffer, one cached append view. */
    SLICES("slices", "per select the intermediate slice (a 64-byte DirectByteBuffer) and per append its slice "
            + "(64 B), where C2 does not scalar-replace them"),
    /** A put already complete is recorded inline: no capturing lambda, no dependent future; the stats kept. */
    NO_LAMBDA("no-lambda", "per put the capturing lambda (32 B) and thenAccept's dependent future (24 B), "
            + "where C2 does not scalar-replace them"),
    /** The topic-queueId key is a final field computed once. */
    CACHED_KEY("cached-key", "per consume-queue put two keys built as topic + \"-\" + queueId: a StringBuilder "
            + "(its array growing with a long topic), the String and its bytes, twice");

    private final String label;
    private final String removes;

    StoreMechanism(String label, String removes) {
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

    /** The set a variant name applies to old: {@code old+slices}, {@code optimized-cached-key}, ... */
    public static EnumSet<StoreMechanism> parse(String variant) {
        return Mechanisms.parse(StoreMechanism.class, variant);
    }

    /** The name of the variant that applies {@code applied} to old. */
    public static String name(Set<StoreMechanism> applied) {
        return Mechanisms.name(StoreMechanism.class, applied);
    }

    /** Old, optimized, each alone, each taken back. */
    public static List<String> aloneAndTakenBack() {
        return Mechanisms.aloneAndTakenBack(StoreMechanism.class);
    }
}
