package hotpath.writer;

/**
 * One item per nesting level of the message being written: its stream, its field cursor and
 * whether its header is written. Items are created lazily and kept, so a nested write that
 * stopped for lack of room resumes where it was.
 */
final class WriterStateStack {

    static final class Item {
        final ByteBufferStream stream;
        int state;
        boolean hdrWritten;

        Item(boolean stringsInPlace) {
            stream = new ByteBufferStream(stringsInPlace);
        }

        void reset() {
            stream.reset();
            state = 0;
            hdrWritten = false;
        }
    }

    private Item[] items = new Item[10];
    private int pos;
    private final boolean stringsInPlace;

    WriterStateStack() {
        this(false);
    }

    /** {@code stringsInPlace}: every level's stream encodes strings straight into the buffer. */
    WriterStateStack(boolean stringsInPlace) {
        this.stringsInPlace = stringsInPlace;
        items[0] = new Item(stringsInPlace);
    }

    Item item() {
        return items[pos];
    }

    void forward() {
        pos++;
        if (pos == items.length) {
            Item[] bigger = new Item[items.length * 2];
            System.arraycopy(items, 0, bigger, 0, items.length);
            items = bigger;
        }
        if (items[pos] == null) {
            items[pos] = new Item(stringsInPlace);
        }
    }

    /** Leaves a nested level; a finished nested write is reset so the next one starts fresh. */
    void backward(boolean reset) {
        if (reset) {
            items[pos].reset();
        }
        pos--;
    }

    void reset() {
        for (Item item : items) {
            if (item != null) {
                item.reset();
            }
        }
        pos = 0;
    }
}
