package hotpath.mechanism;

/**
 * One change that a write-up's patch bundles, modelled so that it can be applied to the old code
 * on its own. Implemented by each case's enum of mechanisms, in the order the variant names
 * list them.
 */
public interface Mechanism {

    /** The short kebab-case name a variant is named by: {@code trimless}, {@code one-scope}. */
    String label();

    /** What the mechanism changes, in one line: the allocation or copy it removes. */
    String removes();
}
