package hotpath.writer;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

import org.apache.ignite.internal.direct.DirectMessageWriter;
import org.apache.ignite.plugin.extensions.communication.MessageReader;

/**
 * The released writer's primitive path, Apache Ignite 2.17.0: {@code DirectMessageWriter} writing
 * the write-up's primitive message (a header, 8 x (int, long, byte, boolean), a UUID), driven as
 * Ignite's NIO layer drives it: the message's {@code writeTo(buf, writer)} is called until it
 * finishes, a fresh buffer handed over whenever it stops for lack of room, and the writer reset
 * after the message. The message visits its fields exactly as {@link PrimitiveFieldsMessage}
 * does, so that only the writer and its stream differ. No release holds the compressed-field
 * path: 2.16.0 to 2.18.0 have no compression in {@code DirectMessageWriter}.
 */
public final class UpstreamPrimitiveWriter {

    private final DirectMessageWriter writer = new DirectMessageWriter();
    private final Fields msg;

    public UpstreamPrimitiveWriter(PrimitiveFieldsMessage model) {
        msg = new Fields(model);
    }

    /** One message written through a reused buffer, counting its bytes: the benchmark's operation. */
    public long writeCounting(ByteBuffer buf) {
        long total = 0;
        buf.clear();
        while (true) {
            boolean finished = msg.writeTo(buf, writer);
            total += buf.position();
            if (finished) {
                writer.reset();
                return total;
            }
            buf.clear();
        }
    }

    /** All bytes of one message written through buffers of {@code bufferSize}. */
    public byte[] write(int bufferSize) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(bufferSize);
        while (true) {
            boolean finished = msg.writeTo(buf, writer);
            out.write(buf.array(), 0, buf.position());
            if (finished) {
                writer.reset();
                return out.toByteArray();
            }
            if (buf.position() == 0) {
                throw new IllegalStateException("no progress with a " + bufferSize + "-byte buffer");
            }
            buf.clear();
        }
    }

    /** Fails unless the release writes exactly our old model's bytes, whole and through small buffers. */
    public static void requireSameBytes(PrimitiveFieldsMessage model) {
        UpstreamPrimitiveWriter release = new UpstreamPrimitiveWriter(model);
        for (int bufferSize : new int[] {17, 64, 8192}) {
            byte[] expected = MessageWire.write(new OldDirectMessageWriter(new MessageFactory()), model, bufferSize);
            byte[] actual = release.write(bufferSize);
            if (!Arrays.equals(expected, actual)) {
                throw new IllegalStateException("the release writes other bytes than our old model through "
                        + bufferSize + "-byte buffers (" + actual.length + " vs " + expected.length + ")");
            }
        }
    }

    /** The primitive message as an Ignite message: our fields, visited in our order. */
    private static final class Fields implements org.apache.ignite.plugin.extensions.communication.Message {

        private static final long serialVersionUID = 1L;

        private final int[] ints;
        private final long[] longs;
        private final byte[] bytes;
        private final boolean[] flags;
        private final UUID id;

        Fields(PrimitiveFieldsMessage m) {
            ints = m.ints;
            longs = m.longs;
            bytes = m.bytes;
            flags = m.flags;
            id = m.id;
        }

        @Override
        public boolean writeTo(ByteBuffer buf, org.apache.ignite.plugin.extensions.communication.MessageWriter writer) {
            writer.setBuffer(buf);
            if (!writer.isHeaderWritten()) {
                if (!writer.writeHeader(directType(), fieldsCount())) {
                    return false;
                }
                writer.onHeaderWritten();
            }
            for (int s = writer.state(); s <= 4 * PrimitiveFieldsMessage.ROUNDS; s = writer.state()) {
                int i = s / 4;
                boolean done = switch (s < 4 * PrimitiveFieldsMessage.ROUNDS ? s % 4 : 4) {
                    case 0 -> writer.writeInt(null, ints[i]);
                    case 1 -> writer.writeLong(null, longs[i]);
                    case 2 -> writer.writeByte(null, bytes[i]);
                    case 3 -> writer.writeBoolean(null, flags[i]);
                    default -> writer.writeUuid(null, id);
                };
                if (!done) {
                    return false;
                }
                writer.incrementState();
            }
            return true;
        }

        @Override
        public boolean readFrom(ByteBuffer buf, MessageReader reader) {
            throw new UnsupportedOperationException("written only");
        }

        @Override
        public short directType() {
            return PrimitiveFieldsMessage.TYPE;
        }

        @Override
        public byte fieldsCount() {
            return (byte) (4 * PrimitiveFieldsMessage.ROUNDS + 1);
        }

        @Override
        public void onAckReceived() {
        }
    }
}
