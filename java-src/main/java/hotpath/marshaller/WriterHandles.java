package hotpath.marshaller;

import java.util.IdentityHashMap;

/**
 * The objects one marshal call has written so far, by identity, with the position of each: a
 * second reference to the same object is written as a back-reference instead of again. Created
 * when the call writes its first object (32 bytes: a header and four fields) and shared with the
 * writers of nested objects; it holds the first object in place and switches to a map at the
 * second.
 */
final class WriterHandles {

    static final int ABSENT = -1;

    private Object data;
    private int singlePos = ABSENT;
    private int mode;
    /** An emptied map kept for the next call of a reused writer (the floor marshaller). */
    private IdentityHashMap<Object, Integer> kept;

    private static final int EMPTY = 0;
    private static final int SINGLE = 1;
    private static final int MULTIPLE = 2;

    /** Records {@code obj} at {@code pos} and returns {@link #ABSENT}, or its earlier position. */
    @SuppressWarnings("unchecked")
    int put(Object obj, int pos) {
        switch (mode) {
            case EMPTY -> {
                data = obj;
                singlePos = pos;
                mode = SINGLE;
                return ABSENT;
            }
            case SINGLE -> {
                if (data == obj) {
                    return singlePos;
                }
                IdentityHashMap<Object, Integer> map = kept != null ? kept : new IdentityHashMap<>();
                kept = null;
                map.put(data, singlePos);
                map.put(obj, pos);
                data = map;
                mode = MULTIPLE;
                return ABSENT;
            }
            default -> {
                Integer prev = ((IdentityHashMap<Object, Integer>) data).putIfAbsent(obj, pos);
                return prev == null ? ABSENT : prev;
            }
        }
    }

    /** Empty again, for the next call of a reused writer; a map it grew is kept. */
    @SuppressWarnings("unchecked")
    void clear() {
        if (mode == MULTIPLE) {
            kept = (IdentityHashMap<Object, Integer>) data;
            kept.clear();
        }
        data = null;
        singlePos = ABSENT;
        mode = EMPTY;
    }
}
