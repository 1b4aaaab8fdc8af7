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
 * path: 2.16.0 to 2.18.0 have no compression in {@code DirectMessageWriter}. Built against 2.16.0
 * the class compiles and runs, but {@link #requireSameBytes} refuses it: its protocol-3 stream
 * writes a UUID as two variable-length longs (19 bytes here), 2.17.0 as 16 raw bytes.
 */
public final class UpstreamPrimitiveWriter {

    /**
     * Ignite 2.16.0 and older speak the direct protocol version 3 that their {@code GridIoManager}
     * (its constant {@code DIRECT_PROTO_VER}) hands every writer; 2.17.0 dropped the versions.
     */
    private static final byte PRE_2_17_DIRECT_PROTO_VER = 3;

    private final DirectMessageWriter writer = newWriter();
    private final Fields msg;

    public UpstreamPrimitiveWriter(PrimitiveFieldsMessage model) {
        msg = new Fields(model);
    }

    /**
     * The release's writer as the release itself makes it: {@code new DirectMessageWriter()} from
     * 2.17.0 on, {@code new DirectMessageWriter(GridIoManager.DIRECT_PROTO_VER)} before. Looked up
     * reflectively, once per instance, so the same source compiles against both (the hot path
     * calls the writer directly).
     */
    static DirectMessageWriter newWriter() {
        try {
            try {
                return DirectMessageWriter.class.getConstructor().newInstance();
            } catch (NoSuchMethodException noArgs) {
                return DirectMessageWriter.class.getConstructor(byte.class).newInstance(PRE_2_17_DIRECT_PROTO_VER);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot construct this release's DirectMessageWriter", e);
        }
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
