package hotpath.marshaller;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What the marshaller knows about types: the hash-code resolver of each, looked up by its type id
 * for every object written (the id is boxed for the lookup: 16 bytes for ids outside the Integer
 * cache). Types without a resolver of their own hash their data bytes.
 */
public final class TypeRegistry {

    /** Hashes an object's data bytes [from, to) of the writer's array. */
    public interface HashResolver {
        int hashCode(byte[] arr, int from, int to);
    }

    /** The default: 31 * h + b over the object's data bytes, starting at 1. */
    static final HashResolver ARRAY_HASH = (arr, from, to) -> {
        int h = 1;
        for (int i = from; i < to; i++) {
            h = 31 * h + arr[i];
        }
        return h;
    };

    private final ConcurrentMap<Integer, HashResolver> resolvers = new ConcurrentHashMap<>();

    /** The last lookup of {@link #resolverOfLast}, so that a repeated type costs no boxing. */
    private volatile Last last;

    private record Last(int typeId, HashResolver resolver) {
    }

    public void register(int typeId, HashResolver resolver) {
        resolvers.put(typeId, resolver);
        last = null;
    }

    /** As the release does: the type id boxed for the map (16 B per call beyond the Integer cache). */
    HashResolver resolver(int typeId) {
        HashResolver r = resolvers.get(typeId);
        return r != null ? r : ARRAY_HASH;
    }

    /** The floor's lookup: the same resolver, without boxing when the type repeats. */
    HashResolver resolverOfLast(int typeId) {
        Last l = last;
        if (l == null || l.typeId() != typeId) {
            l = new Last(typeId, resolver(typeId));
            last = l;
        }
        return l.resolver();
    }
}
