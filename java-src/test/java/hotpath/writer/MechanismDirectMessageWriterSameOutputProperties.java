package hotpath.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every combination of the writer's mechanisms writes the bytes old writes, over the messages and
 * buffer sizes of {@link WriterSameOutputProperties} (primitive fields at the varint edges,
 * exchange messages around the 10 KB scratch, nested and compressed-inside-compressed fields,
 * buffers from 10 bytes that cut every field), each through a fresh writer and through one writer
 * kept for every try, as a writer is reused message after message (its scratch buffer kept at the
 * largest size seen, its scratch writer reset).
 */
class MechanismDirectMessageWriterSameOutputProperties {

    private static final List<String> VARIANTS = WriterMechanism.everyCombination();
    private static final Map<String, MessageWriter> KEPT = new LinkedHashMap<>();

    static {
        for (String variant : VARIANTS) {
            KEPT.put(variant, MechanismDirectMessageWriter.of(variant));
        }
    }

    @Property(tries = 400)
    void everyCombinationWritesTheBytesOfOld(@ForAll("messages") Message msg, @ForAll("bufferSizes") int bufferSize) {
        byte[] expected = MessageWire.write(new OldDirectMessageWriter(new MessageFactory()), msg, bufferSize);
        for (String variant : VARIANTS) {
            assertArrayEquals(expected, MessageWire.write(MechanismDirectMessageWriter.of(variant), msg, bufferSize),
                    variant + ", a fresh writer");
            assertArrayEquals(expected, MessageWire.write(KEPT.get(variant), msg, bufferSize), variant + ", a kept writer");
        }
    }

    /** The write-up's two messages, whose fields the old scratch holds (30) and outgrows three times (500). */
    @Example
    void everyCombinationWritesTheBenchmarksMessagesAsOldDoes() {
        for (int entries : new int[] {30, 500}) {
            ExchangeMessage msg = ExchangeMessage.random(entries, 42);
            for (int bufferSize : new int[] {16, 65536}) {
                byte[] expected = MessageWire.write(new OldDirectMessageWriter(new MessageFactory()), msg, bufferSize);
                for (String variant : VARIANTS) {
                    MessageWriter writer = MechanismDirectMessageWriter.of(variant);
                    for (int call = 0; call < 2; call++) {
                        assertArrayEquals(expected, MessageWire.write(writer, msg, bufferSize),
                                variant + ", " + entries + " entries, call " + call);
                    }
                }
            }
        }
    }

    @Example
    void theBenchmarkRunsEveryCombination() throws NoSuchFieldException {
        String[] declared = WriterMechanismsBenchmark.class.getDeclaredField("variant")
                .getAnnotation(org.openjdk.jmh.annotations.Param.class).value();
        assertEquals(VARIANTS, Arrays.asList(declared));
    }

    @Provide
    Arbitrary<Message> messages() {
        return new WriterSameOutputProperties().messages();
    }

    @Provide
    Arbitrary<Integer> bufferSizes() {
        return new WriterSameOutputProperties().bufferSizes();
    }
}
