package hotpath.mechanism;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Variant names for sets of mechanisms, and back. A variant is named by what it changes:
 * {@code old} (no mechanism), {@code optimized} (every one), {@code old+a+b} (a and b applied to
 * old), {@code optimized-a} (a taken back from optimized). Labels come in the enum's order, so
 * that a set written as {@code old+...} has one name and a result row one key.
 */
public final class Mechanisms {

    public static final String OLD = "old";
    public static final String OPTIMIZED = "optimized";

    private Mechanisms() {
    }

    /** The set a variant name applies to old; an unknown name or label fails with the known ones. */
    public static <E extends Enum<E> & Mechanism> EnumSet<E> parse(Class<E> type, String variant) {
        if (variant.equals(OLD)) {
            return EnumSet.noneOf(type);
        }
        if (variant.equals(OPTIMIZED)) {
            return EnumSet.allOf(type);
        }
        boolean adding = variant.startsWith(OLD + "+");
        boolean takingBack = variant.startsWith(OPTIMIZED + "-");
        if (!adding && !takingBack) {
            throw unknown(type, variant, "a name is old, optimized, old+<mechanism>... or optimized-<mechanism>...");
        }
        String rest = variant.substring(adding ? OLD.length() + 1 : OPTIMIZED.length() + 1);
        // Labels hold '-' themselves (one-scope): split on the separator only where a label ends.
        EnumSet<E> named = EnumSet.noneOf(type);
        E last = null;
        int at = 0;
        while (at < rest.length()) {
            E found = null;
            for (E m : type.getEnumConstants()) {
                String label = m.label();
                int end = at + label.length();
                if (rest.startsWith(label, at) && (end == rest.length() || rest.charAt(end) == (adding ? '+' : '-'))) {
                    if (found == null || label.length() > found.label().length()) {
                        found = m;
                    }
                }
            }
            if (found == null) {
                throw unknown(type, variant, "no mechanism at '" + rest.substring(at) + "'");
            }
            if (last != null && found.ordinal() <= last.ordinal()) {
                throw unknown(type, variant, "mechanisms are named once each, in the order " + labels(type));
            }
            named.add(found);
            last = found;
            at += found.label().length();
            if (at < rest.length() && ++at == rest.length()) {
                throw unknown(type, variant, "no mechanism after the last separator");
            }
        }
        if (named.isEmpty() || named.size() == type.getEnumConstants().length) {
            throw unknown(type, variant, "name no mechanism or every one as " + OLD + " or " + OPTIMIZED);
        }
        if (adding) {
            return named;
        }
        EnumSet<E> applied = EnumSet.allOf(type);
        applied.removeAll(named);
        return applied;
    }

    private static IllegalArgumentException unknown(Class<?> type, String variant, String why) {
        return new IllegalArgumentException("unknown variant '" + variant + "' of " + type.getSimpleName() + ": " + why);
    }

    /** {@code old}, {@code optimized}, or {@code old+} the applied labels in the enum's order. */
    public static <E extends Enum<E> & Mechanism> String name(Class<E> type, Set<E> applied) {
        if (applied.isEmpty()) {
            return OLD;
        }
        if (applied.size() == type.getEnumConstants().length) {
            return OPTIMIZED;
        }
        StringJoiner name = new StringJoiner("+", OLD + "+", "");
        for (E m : EnumSet.copyOf(applied)) {
            name.add(m.label());
        }
        return name.toString();
    }

    /** {@code optimized-} the label: every mechanism but {@code m}. */
    public static <E extends Enum<E> & Mechanism> String takenBack(E m) {
        return OPTIMIZED + "-" + m.label();
    }

    /** Every combination, by how many mechanisms it applies, then in the enum's order. */
    public static <E extends Enum<E> & Mechanism> List<String> everyCombination(Class<E> type) {
        List<String> names = new ArrayList<>();
        for (int size = 0; size <= type.getEnumConstants().length; size++) {
            combinations(type, size, 0, EnumSet.noneOf(type), names);
        }
        return names;
    }

    private static <E extends Enum<E> & Mechanism> void combinations(Class<E> type, int size, int from, EnumSet<E> chosen,
                                                                     List<String> names) {
        if (chosen.size() == size) {
            names.add(name(type, chosen));
            return;
        }
        E[] all = type.getEnumConstants();
        for (int i = from; i < all.length; i++) {
            chosen.add(all[i]);
            combinations(type, size, i + 1, chosen, names);
            chosen.remove(all[i]);
        }
    }

    /** Old, optimized, each mechanism alone, each taken back: a design of 2 + 2n variants. */
    public static <E extends Enum<E> & Mechanism> List<String> aloneAndTakenBack(Class<E> type) {
        List<String> names = new ArrayList<>(List.of(OLD, OPTIMIZED));
        for (E m : type.getEnumConstants()) {
            names.add(name(type, EnumSet.of(m)));
        }
        for (E m : type.getEnumConstants()) {
            names.add(takenBack(m));
        }
        return names;
    }

    /** The labels in the enum's order. */
    public static <E extends Enum<E> & Mechanism> List<String> labels(Class<E> type) {
        List<String> labels = new ArrayList<>();
        for (E m : type.getEnumConstants()) {
            labels.add(m.label());
        }
        return labels;
    }

    /** One line per mechanism: its label and what it removes. */
    public static <E extends Enum<E> & Mechanism> String listing(Class<E> type) {
        StringBuilder sb = new StringBuilder();
        for (E m : type.getEnumConstants()) {
            sb.append(m.label()).append(": ").append(m.removes()).append('\n');
        }
        return sb.toString();
    }
}
