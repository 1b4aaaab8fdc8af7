package hotpath.marshaller;

/**
 * One reusable byte[] per thread for the binary writer's output. A nested marshal on the same
 * thread finds the array in use and gets a fresh one; a grown array replaces the pooled one.
 */
public final class ArrayPool {

    static final int INITIAL_CAPACITY = 1024;

    private static final class Slot {
        byte[] array;
        boolean inUse;
        long releases;
    }

    private final ThreadLocal<Slot> slot = ThreadLocal.withInitial(Slot::new);

    /** The pooled array if it is free (marking it in use), else null: the caller allocates. */
    byte[] acquire() {
        Slot s = slot.get();
        if (s.inUse) {
            return null;
        }
        s.inUse = true;
        if (s.array == null) {
            s.array = new byte[INITIAL_CAPACITY];
        }
        return s.array;
    }

    void adopt(byte[] grown) {
        slot.get().array = grown;
    }

    void release() {
        Slot s = slot.get();
        s.inUse = false;
        s.releases++;
    }

    /** For tests: whether this thread's pooled array is borrowed right now. */
    public boolean inUse() {
        return slot.get().inUse;
    }

    /** For tests: how many times this thread's array was given back. */
    public long releases() {
        return slot.get().releases;
    }

    /** For tests and notebooks: this thread's pooled array (null before first use). */
    public byte[] pooledArray() {
        return slot.get().array;
    }
}
