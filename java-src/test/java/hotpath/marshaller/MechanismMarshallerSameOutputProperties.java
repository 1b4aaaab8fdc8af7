package hotpath.marshaller;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every combination of the marshaller's mechanisms streams the bytes old streams, over the
 * objects of {@link MarshallerSameOutputProperties} (sizes around the 1024-byte initial array and
 * its doublings, multi-byte names, nesting) and null, each marshalled twice through one pool so
 * that the second call finds the pooled array grown by the first.
 */
class MechanismMarshallerSameOutputProperties {

    private static final List<String> VARIANTS = MarshallerMechanism.everyCombination();

    @Property(tries = 600)
    void everyCombinationStreamsTheBytesOfOld(@ForAll("orders") MarshallerSameOutputProperties.OrderSpec spec)
            throws IOException {
        Order order = spec.build();
        byte[] expected = new OldMarshaller("n", new ArrayPool()).marshal(order);
        for (String variant : VARIANTS) {
            Marshaller m = MechanismMarshaller.of(variant, "n", new ArrayPool());
            for (int call = 0; call < 2; call++) {
                assertArrayEquals(expected, stream(m, order), variant + ", call " + call);
            }
            // The public marshal(obj) is untouched by the mechanisms.
            assertArrayEquals(expected, m.marshal(order), variant);
        }
    }

    @Example
    void everyCombinationStreamsNullAsTheSingleByte0x65() throws IOException {
        for (String variant : VARIANTS) {
            Marshaller m = MechanismMarshaller.of(variant, "n", new ArrayPool());
            assertArrayEquals(new byte[] {BinaryWriter.NULL}, stream(m, null), variant);
            assertArrayEquals(new byte[] {BinaryWriter.NULL}, m.marshal(null), variant);
        }
    }

    /** A nested marshal finds the pooled array in use: every combination still streams old's bytes. */
    @Example
    void everyCombinationStreamsTheBytesOfOldForAMarshalInsideAMarshal() throws IOException {
        Order inner = Order.ofSize(3000, 5);
        for (String variant : VARIANTS) {
            Marshaller old = new OldMarshaller("n", new ArrayPool());
            Marshaller m = MechanismMarshaller.of(variant, "n", new ArrayPool());
            byte[] expected = stream(old, new MarshallerEquivalenceTest.Envelope(old, inner));
            assertArrayEquals(expected, stream(m, new MarshallerEquivalenceTest.Envelope(m, inner)), variant);
        }
    }

    @Example
    void theBenchmarkRunsEveryCombination() throws NoSuchFieldException {
        String[] declared = MarshallerMechanismsBenchmark.class.getDeclaredField("variant")
                .getAnnotation(org.openjdk.jmh.annotations.Param.class).value();
        assertEquals(VARIANTS, Arrays.asList(declared));
    }

    @Provide
    Arbitrary<MarshallerSameOutputProperties.OrderSpec> orders() {
        return new MarshallerSameOutputProperties().orders();
    }

    private static byte[] stream(Marshaller m, BinaryWritable obj) throws IOException {
        ByteSink sink = new ByteSink(16);
        m.marshal(obj, sink);
        return sink.toByteArray();
    }
}
