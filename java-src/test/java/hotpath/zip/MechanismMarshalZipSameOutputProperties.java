package hotpath.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.zip.Deflater;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every combination of the zip mechanisms writes old's zlib stream, over the objects of
 * {@link ZipSameOutputProperties} (model maps, nested lists, byte arrays whose serialization sits
 * at the serializer's 1 KB block and the 8 KB buffer, +-1, compressible or random, strings at the
 * short form's limit, null, a few 132 KB payloads): inflate(variant) == marshal(obj), and the
 * compressed bytes equal old's (zlib at the default level emits the same stream however the
 * input is fed). Each model is called twice, so that a second call finds nothing left over.
 */
class MechanismMarshalZipSameOutputProperties {

    private static final List<String> VARIANTS = ZipMechanism.everyCombination();

    @Property(tries = 1500)
    void everyCombinationWritesOldsZlibStreamWhichInflatesToTheMarshalledBytes(
            @ForAll("objects") ZipSameOutputProperties.ObjectSpec spec) {
        Object obj = spec.build();
        byte[] marshalled = ZipSameOutputProperties.serialize(obj);
        byte[] old = new MarshalZip().old(obj);
        assertArrayEquals(marshalled, ZipVariant.inflate(old), "old");
        for (String variant : VARIANTS) {
            MechanismMarshalZip zip = MechanismMarshalZip.of(variant);
            for (int call = 0; call < 2; call++) {
                byte[] zipped = zip.marshalZip(obj);
                assertArrayEquals(marshalled, ZipVariant.inflate(zipped), variant + ", call " + call);
                assertArrayEquals(old, zipped, variant + ", call " + call + ": other compressed bytes than old's");
            }
        }
    }

    /** The empty set is old and the full set the write-up's buffered code, byte for byte. */
    @Example
    void theEndsWriteWhatTheOldAndBufferedModelsWrite() {
        MarshalZip models = new MarshalZip();
        for (ZipPayload payload : List.of(ZipPayload.MAP_1600B, ZipPayload.MAP_3K, ZipPayload.RANDOM_132K)) {
            Object obj = payload.create(7);
            assertArrayEquals(models.old(obj), MechanismMarshalZip.of("old").marshalZip(obj), payload.name());
            assertArrayEquals(models.buffered(obj), MechanismMarshalZip.of("optimized").marshalZip(obj), payload.name());
            assertArrayEquals(models.unbuffered(obj), MechanismMarshalZip.of("old+streamed+ended").marshalZip(obj),
                    payload.name());
        }
    }

    /** ended ends the call's Deflater, also when serialization fails; without it the Deflater is left open. */
    @Example
    void exactlyTheCombinationsWithEndedEndTheirDeflater() {
        Object obj = ZipPayload.MAP_3K.create(3);
        Object notSerializable = new ArrayList<>(List.of(new Object()));
        for (String variant : VARIANTS) {
            EnumSet<ZipMechanism> applied = ZipMechanism.parse(variant);
            List<Deflater> created = new ArrayList<>();
            MechanismMarshalZip zip = new MechanismMarshalZip(applied, () -> {
                Deflater d = new Deflater();
                created.add(d);
                return d;
            });
            zip.marshalZip(obj);
            assertThrows(RuntimeException.class, () -> zip.marshalZip(notSerializable), variant);
            // Old's shape makes its Deflater after marshalling: a failed serialization makes none.
            assertEquals(applied.contains(ZipMechanism.STREAMED) ? 2 : 1, created.size(), variant);
            for (Deflater d : created) {
                if (applied.contains(ZipMechanism.ENDED)) {
                    assertThrows(NullPointerException.class, d::getTotalIn, variant + ": an ended Deflater refuses calls");
                } else {
                    assertDoesNotThrow(d::getTotalIn, variant + ": left open until the Cleaner runs");
                    d.end();
                }
            }
        }
    }

    @Example
    void theBenchmarkRunsEveryCombination() throws NoSuchFieldException {
        String[] declared = ZipMechanismsBenchmark.class.getDeclaredField("variant")
                .getAnnotation(org.openjdk.jmh.annotations.Param.class).value();
        assertEquals(VARIANTS, Arrays.asList(declared));
    }

    @Provide
    Arbitrary<ZipSameOutputProperties.ObjectSpec> objects() {
        return new ZipSameOutputProperties().objects();
    }
}
