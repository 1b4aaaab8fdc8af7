package hotpath.profiler;

import java.io.IOException;
import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import one.convert.Main;

/**
 * Differential flame graphs of allocation sites, many in one JVM: async-profiler's converter
 * ({@code jfrconv --diff base new out.html}) for each line of a job file, so that a report's
 * rows do not each pay a JVM start. A line is {@code base<TAB>new<TAB>out.html<TAB>title}; the
 * inputs are collapsed stacks. The graph has the new profile's shape, coloured by how much each
 * frame grew or shrank against the base: frames only the base has are not drawn, so a report
 * draws each row both ways.
 *
 * <p>How to run: {@code java -cp target/benchmarks.jar hotpath.profiler.DiffFlameGraphs jobs.tsv}
 */
public final class DiffFlameGraphs {

    private DiffFlameGraphs() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: DiffFlameGraphs <jobs.tsv: base, new, out.html, title per line>");
            System.exit(2);
        }
        List<String> jobs = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
        PrintStream out = System.out;
        // the converter prints a line per graph; the caller wants only failures
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try {
            for (String job : jobs) {
                if (job.isBlank()) {
                    continue;
                }
                String[] f = job.split("\t", -1);
                if (f.length != 4) {
                    throw new IOException("a job line needs base, new, out and title: " + job);
                }
                Main.main(new String[] {"--diff", "--title", f[3], f[0], f[1], f[2]});
            }
        } finally {
            System.setOut(out);
        }
    }
}
