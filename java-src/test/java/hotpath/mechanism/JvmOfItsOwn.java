package hotpath.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Heap bytes per call measured in a JVM of its own, with escape analysis off: a short-lived array
 * or object that never escapes is scalar-replaced by C2 in some compilations and not in others, as
 * the branch profiles left by the variants measured before go, so a count taken with it on
 * depends on the order and the timing of the measurements. Without it every object the code
 * makes is allocated and the counts hold exactly; what C2 removes on top is for the benchmark to
 * show. The child's {@code main} prints one {@code <name> <bytes>} line per figure.
 */
public final class JvmOfItsOwn {

    private JvmOfItsOwn() {
    }

    /** The figures {@code main}'s class printed, by name, in its order; {@code jvmArgs} beside. */
    public static Map<String, Double> figures(Class<?> main, String... jvmArgs)
            throws IOException, InterruptedException {
        String javaBin = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> command = new ArrayList<>(List.of(javaBin, "-XX:-DoEscapeAnalysis", "-Xmx256m"));
        command.addAll(List.of(jvmArgs));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(true, p.waitFor(120, TimeUnit.SECONDS), "child JVM");
        assertEquals(0, p.exitValue(), out);
        Map<String, Double> bytes = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length == 2 && f[1].matches("[0-9.]+")) {
                bytes.put(f[0], Double.parseDouble(f[1]));
            }
        }
        return bytes;
    }
}
