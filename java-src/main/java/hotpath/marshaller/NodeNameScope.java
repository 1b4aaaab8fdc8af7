package hotpath.marshaller;

/**
 * The thread-local "current node name" a marshaller runs under. {@link #enter} sets it only when
 * the reference differs and returns what to restore; {@link #exit} restores it. Each scope costs
 * at least two ThreadLocal accesses even when nothing changes.
 */
public final class NodeNameScope {

    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private NodeNameScope() {
    }

    public static String current() {
        return CURRENT.get();
    }

    public static String enter(String name) {
        String prev = CURRENT.get();
        if (prev != name) {
            CURRENT.set(name);
        }
        return prev;
    }

    public static void exit(String name, String prev) {
        if (prev != name) {
            CURRENT.set(prev);
        }
    }
}
