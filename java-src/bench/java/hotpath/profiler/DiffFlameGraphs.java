package hotpath.profiler;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
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
 * <p>With {@code --serve <socket>}, one JVM draws every report's graphs of a render: it takes
 * connections on a Unix socket, each a job file's path per line, and answers each with
 * {@code ok} or {@code error <why>} on a line once its graphs are written. The job files are
 * drawn one at a time, as one JVM draws a file's lines. It ends when its standard input does.
 *
 * <p>How to run: {@code java -cp target/benchmarks.jar hotpath.profiler.DiffFlameGraphs jobs.tsv}
 */
public final class DiffFlameGraphs {

    /** One job file at a time: the converter was written for a JVM of its own. */
    private static final Object DRAWING = new Object();

    private DiffFlameGraphs() {
    }

    public static void main(String[] args) throws Exception {
        boolean serving = args.length == 2 && args[0].equals("--serve");
        if (args.length != 1 && !serving) {
            System.err.println("usage: DiffFlameGraphs <jobs.tsv: base, new, out.html, title per line>"
                    + " | --serve <socket>");
            System.exit(2);
        }
        PrintStream out = System.out;
        // the converter prints a line per graph; the caller wants only failures
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try {
            if (serving) {
                serve(Path.of(args[1]));
            } else {
                draw(Path.of(args[0]));
            }
        } finally {
            System.setOut(out);
        }
    }

    private static void draw(Path listing) throws Exception {
        List<String> jobs = Files.readAllLines(listing, StandardCharsets.UTF_8);
        synchronized (DRAWING) {
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
        }
    }

    private static void serve(Path socket) throws IOException {
        // the render holds this JVM's standard input open while it lives: at its end, however it
        // ended, the input ends and so does the converter
        Thread watching = new Thread(() -> {
            try {
                while (System.in.read() != -1) {
                    // nothing is sent: the input only ends
                }
            } catch (IOException e) {
                // an input that cannot be read has ended too
            }
            System.exit(0);
        }, "render watch");
        watching.setDaemon(true);
        watching.start();
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            while (true) {
                SocketChannel client = server.accept();
                Thread answering = new Thread(() -> answer(client), "flame graphs");
                answering.setDaemon(true);
                answering.start();
            }
        }
    }

    private static void answer(SocketChannel client) {
        try (client;
             BufferedReader in = new BufferedReader(Channels.newReader(client, StandardCharsets.UTF_8));
             Writer replies = Channels.newWriter(client, StandardCharsets.UTF_8)) {
            for (String listing = in.readLine(); listing != null; listing = in.readLine()) {
                String reply;
                try {
                    draw(Path.of(listing));
                    reply = "ok";
                } catch (Exception e) {
                    reply = "error " + String.valueOf(e).replaceAll("[\r\n]+", " ");
                }
                replies.write(reply + "\n");
                replies.flush();
            }
        } catch (IOException e) {
            // the client went away: nothing to answer
        }
    }
}
