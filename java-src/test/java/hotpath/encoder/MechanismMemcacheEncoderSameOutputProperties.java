package hotpath.encoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Arrays;
import java.util.List;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every combination of the encoder's mechanisms encodes old's packet, over the keys, values and
 * opcodes of {@link EncoderSameOutputProperties} (every payload type, multi-byte UTF-8, sizes at
 * the 32-byte stream's and the list's edges, absent keys and values, opcodes with and without
 * flags), and leaves the message as old leaves it (holding the encoded bytes) unless it applies
 * {@code no-mutation} (then the message is untouched).
 */
class MechanismMemcacheEncoderSameOutputProperties {

    private static final List<String> VARIANTS = EncoderMechanism.everyCombination();

    @Property(tries = 1500)
    void everyCombinationEncodesOldsPacketAndLeavesTheMessageAsItSays(
            @ForAll("keys") EncoderSameOutputProperties.Spec keySpec,
            @ForAll("values") EncoderSameOutputProperties.Spec valueSpec, @ForAll("opcodes") byte opcode) {
        Object key = keySpec.build();
        Object value = valueSpec.build();
        MemcacheResponse oldResp = new MemcacheResponse(key, value, opcode, (short) 0, 7);
        byte[] expected = new OldMemcacheEncoder().encodeMemcache(oldResp).array();
        for (String variant : VARIANTS) {
            MemcacheResponse resp = new MemcacheResponse(key, value, opcode, (short) 0, 7);
            assertArrayEquals(expected, MechanismMemcacheEncoder.of(variant).encodeMemcache(resp).array(), variant);
            if (EncoderMechanism.parse(variant).contains(EncoderMechanism.NO_MUTATION)) {
                assertSame(key, resp.key(), variant);
                assertSame(value, resp.value(), variant);
            } else {
                assertArrayEquals((byte[]) oldResp.key(), (byte[]) resp.key(), variant);
                assertArrayEquals((byte[]) oldResp.value(), (byte[]) resp.value(), variant);
            }
        }
    }

    @Example
    void theBenchmarkRunsEveryCombination() throws NoSuchFieldException {
        String[] declared = EncoderMechanismsBenchmark.class.getDeclaredField("variant")
                .getAnnotation(org.openjdk.jmh.annotations.Param.class).value();
        assertEquals(VARIANTS, Arrays.asList(declared));
    }

    @Provide
    Arbitrary<EncoderSameOutputProperties.Spec> keys() {
        return new EncoderSameOutputProperties().keys();
    }

    @Provide
    Arbitrary<EncoderSameOutputProperties.Spec> values() {
        return new EncoderSameOutputProperties().values();
    }

    @Provide
    Arbitrary<Byte> opcodes() {
        return new EncoderSameOutputProperties().opcodes();
    }
}
