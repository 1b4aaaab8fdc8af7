package hotpath.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import hotpath.fidelity.HeapPerCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The released writer's primitive path (Ignite 2.17.0) beside our old model. */
class UpstreamPrimitiveWriterTest {

    @ParameterizedTest
    @ValueSource(ints = {17, 18, 25, 64, 8192})
    void releaseWritesOldModelsBytesForGeneratedMessagesThroughAnyBuffer(int bufferSize) {
        for (long seed = 0; seed < 200; seed++) {
            PrimitiveFieldsMessage msg = PrimitiveFieldsMessage.random(seed);
            byte[] model = MessageWire.write(new OldDirectMessageWriter(new MessageFactory()), msg, bufferSize);
            long s = seed;
            assertArrayEquals(model, new UpstreamPrimitiveWriter(msg).write(bufferSize), () -> "seed " + s);
        }
    }

    @Test
    void theCheckThrowsOnlyWhenBytesDiffer() {
        UpstreamPrimitiveWriter.requireSameBytes(PrimitiveFieldsMessage.random(1));
        PrimitiveFieldsMessage a = PrimitiveFieldsMessage.random(1);
        PrimitiveFieldsMessage b = PrimitiveFieldsMessage.random(2);
        assertTrue(!java.util.Arrays.equals(new UpstreamPrimitiveWriter(a).write(8192),
                new UpstreamPrimitiveWriter(b).write(8192)));
    }

    @Test
    void neitherAllocatesPerMessage() {
        PrimitiveFieldsMessage msg = PrimitiveFieldsMessage.random(42);
        UpstreamPrimitiveWriter release = new UpstreamPrimitiveWriter(msg);
        MessageWriter model = new OldDirectMessageWriter(new MessageFactory());
        ByteBuffer buf = ByteBuffer.allocateDirect(8192);
        long[] sink = new long[1];
        double[] bytes = HeapPerCall.compare(() -> {
            sink[0] += release.writeCounting(buf);
            return sink;
        }, () -> {
            sink[0] += MessageWire.writeCounting(model, msg, buf);
            return sink;
        }, 200_000, 100_000);
        assertEquals(0, bytes[0], 1, "release");
        assertEquals(0, bytes[1], 1, "model");
    }
}
