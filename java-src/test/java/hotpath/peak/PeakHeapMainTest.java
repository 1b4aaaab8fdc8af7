package hotpath.peak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeakHeapMainTest {

    /** Calls with a known peak: holding 4 MB and 16 MB arrays, and one that always fails. */
    public static final class KnownCalls implements PeakCalls {
        @Override
        public List<PeakCall> calls() {
            return List.of(
                    new PeakCall("known.hold", Map.of("variant", "4m"), "none", () -> "payload",
                            p -> new byte[4 * 1024 * 1024]),
                    new PeakCall("known.hold", Map.of("variant", "16m"), "none", () -> "payload",
                            p -> new byte[16 * 1024 * 1024]),
                    new PeakCall("known.fail", Map.of("variant", "fail"), "none", () -> "payload",
                            p -> {
                                throw new IllegalStateException("not a memory problem");
                            }));
        }
    }

    @Test
    void measuredPeakMatchesAKnownAllocationWithinTheResolution(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("peak.json");
        new PeakHeapMain(KnownCalls.class.getName(), 2.0).run(out, Pattern.compile("variant=(4m|16m)"));
        String json = Files.readString(out);
        for (long mb : new long[] {4, 16}) {
            Matcher m = Pattern.compile("\"variant\": \"" + mb + "m\"}, \"peakBytes\": (\\d+).*?\"resolutionBytes\": (\\d+)")
                    .matcher(json);
            assertTrue(m.find(), json);
            long peak = Long.parseLong(m.group(1));
            long resolution = Long.parseLong(m.group(2));
            long expected = mb * 1024 * 1024;
            // Within one resolution step (the JVM's 1 MB heap granularity) plus 256 KB of slack.
            assertTrue(Math.abs(peak - expected) <= resolution + 256 * 1024,
                    mb + " MB measured as " + peak + " (resolution " + resolution + ")");
        }
        assertTrue(Files.list(dir).noneMatch(p -> p.toString().endsWith(".partial")));
    }

    @Test
    void aCallThatFailsForAnotherReasonGivesAClearError(@TempDir Path dir) {
        PeakHeapMain main = new PeakHeapMain(KnownCalls.class.getName(), 10.0);
        Exception e = assertThrows(PeakHeapMain.PeakException.class,
                () -> main.run(dir.resolve("peak.json"), Pattern.compile("variant=fail")));
        assertTrue(e.getMessage().contains("not a memory problem"), e.getMessage());
        assertEquals(0, dir.toFile().list().length, "no result file is left behind");
    }
}
