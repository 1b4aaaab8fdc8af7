package hotpath.writer;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * Drives a writer the way a network layer does: write into a buffer of a given size, drain it
 * when the writer stops for lack of room, hand the buffer back, and call again.
 */
public final class MessageWire {

    private MessageWire() {
    }

    /** All bytes of one message written through buffers of {@code bufferSize}. */
    public static byte[] write(MessageWriter writer, Message msg, int bufferSize) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(bufferSize);
        writer.reset();
        writer.setBuffer(buf);
        while (true) {
            boolean finished = msg.writeTo(writer);
            out.write(buf.array(), 0, buf.position());
            if (finished) {
                return out.toByteArray();
            }
            if (buf.position() == 0) {
                throw new IllegalStateException("no progress with a " + bufferSize + "-byte buffer");
            }
            buf.clear();
            writer.setBuffer(buf);
        }
    }

    /**
     * Writes one message through a reused buffer, counting bytes instead of keeping them: the
     * benchmark's operation, with no allocation of its own.
     */
    public static long writeCounting(MessageWriter writer, Message msg, ByteBuffer buf) {
        long total = 0;
        writer.reset();
        buf.clear();
        writer.setBuffer(buf);
        while (true) {
            boolean finished = msg.writeTo(writer);
            total += buf.position();
            if (finished) {
                return total;
            }
            buf.clear();
            writer.setBuffer(buf);
        }
    }
}
