package hotpath.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;

import org.junit.jupiter.api.Test;

class MechanismsTest {

    /** Labels that hold the '-' which also separates what is taken back. */
    enum Sample implements Mechanism {
        TRIM("trim"), ONE_SCOPE("one-scope"), ONE("one"), NULL("null");

        private final String label;

        Sample(String label) {
            this.label = label;
        }

        @Override
        public String label() {
            return label;
        }

        @Override
        public String removes() {
            return "nothing";
        }
    }

    @Test
    void oldIsTheEmptySetAndOptimizedEveryMechanism() {
        assertEquals(EnumSet.noneOf(Sample.class), Mechanisms.parse(Sample.class, "old"));
        assertEquals(EnumSet.allOf(Sample.class), Mechanisms.parse(Sample.class, "optimized"));
        assertEquals("old", Mechanisms.name(Sample.class, EnumSet.noneOf(Sample.class)));
        assertEquals("optimized", Mechanisms.name(Sample.class, EnumSet.allOf(Sample.class)));
    }

    @Test
    void addedMechanismsAreNamedInTheEnumsOrderAndTakenBackOnesFromOptimized() {
        assertEquals(EnumSet.of(Sample.TRIM, Sample.ONE_SCOPE), Mechanisms.parse(Sample.class, "old+trim+one-scope"));
        assertEquals(EnumSet.of(Sample.ONE), Mechanisms.parse(Sample.class, "old+one"));
        assertEquals(EnumSet.of(Sample.TRIM, Sample.ONE, Sample.NULL), Mechanisms.parse(Sample.class, "optimized-one-scope"));
        assertEquals(EnumSet.of(Sample.TRIM, Sample.NULL), Mechanisms.parse(Sample.class, "optimized-one-scope-one"));
        assertEquals("old+trim+null", Mechanisms.name(Sample.class, EnumSet.of(Sample.NULL, Sample.TRIM)));
        assertEquals("optimized-one", Mechanisms.takenBack(Sample.ONE));
    }

    @Test
    void everyNameParsesBackToItsSet() {
        List<String> all = Mechanisms.everyCombination(Sample.class);
        assertEquals(16, all.size());
        assertEquals(16, new HashSet<>(all).size());
        assertEquals("old", all.get(0));
        assertEquals("old+trim", all.get(1));
        assertEquals("old+trim+one-scope", all.get(5));
        assertEquals("optimized", all.get(15));
        for (String name : all) {
            assertEquals(name, Mechanisms.name(Sample.class, Mechanisms.parse(Sample.class, name)));
        }
        for (Sample m : Sample.values()) {
            EnumSet<Sample> rest = EnumSet.allOf(Sample.class);
            rest.remove(m);
            assertEquals(rest, Mechanisms.parse(Sample.class, Mechanisms.takenBack(m)));
        }
        assertEquals(List.of("old", "optimized", "old+trim", "old+one-scope", "old+one", "old+null",
                "optimized-trim", "optimized-one-scope", "optimized-one", "optimized-null"),
                Mechanisms.aloneAndTakenBack(Sample.class));
    }

    @Test
    void anUnknownNameFailsNamingTheKnownMechanisms() {
        for (String bad : List.of("", "floor", "old+", "old+trim+", "old+scope", "old+one-scope+trim", "old+trim+trim",
                "optimized+trim", "old-trim", "old+trim+one-scope+one+null", "optimized-trim-one-scope-one-null")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Mechanisms.parse(Sample.class, bad), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Mechanisms.parse(Sample.class, "old+one-scope+trim"));
        assertTrue(e.getMessage().contains("[trim, one-scope, one, null]"), e.getMessage());
    }

    @Test
    void theListingHasOneLinePerMechanism() {
        assertEquals("trim: nothing\none-scope: nothing\none: nothing\nnull: nothing\n", Mechanisms.listing(Sample.class));
    }
}
