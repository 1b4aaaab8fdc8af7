package hotpath.floors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The allocation floors of a case, {@code data/floors/<case>.csv}, against the case's JMH
 * benchmarks: which benchmark x params combinations exist (found by reflection, as JMH finds
 * them), and how many heap bytes one call of a benchmark method allocates once warm (the
 * thread's allocation counter around many calls, each result kept reachable).
 */
public final class Floors {

    /** One CSV row: bytes per operation that the operation's API cannot avoid. */
    public record Row(String benchmark, String params, long heapFloor, long nativeFloor, String basis) {
    }

    /**
     * One benchmark method with one value of each non-variant @Param; {@code params} in
     * declaration order, {@code variants} the values of its {@code variant} @Param.
     */
    public record Combo(Class<?> type, Method method, Map<String, String> params, List<String> variants) {

        /** As JMH names it: the class's full name, a dot, the method. */
        public String benchmark() {
            return type.getName() + "." + method.getName();
        }

        /** {@code a=1;b=2}, or empty without params. */
        public String paramsText() {
            StringBuilder sb = new StringBuilder();
            params.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ";").append(k).append('=').append(v));
            return sb.toString();
        }

        public String key() {
            return benchmark() + " [" + paramsText() + "]";
        }

        /** The leanest variant this benchmark runs: floor where it has one, else optimized. */
        public String leanestVariant() {
            return variants.contains("floor") ? "floor" : "optimized";
        }
    }

    private Floors() {
    }

    /** Rounds an object's size up to the JVM's 8-byte alignment. */
    public static long align8(long bytes) {
        return (bytes + 7) / 8 * 8;
    }

    private static final String HEADER = "benchmark,params,heap_floor,native_floor,basis";

    /** The project root: Maven runs tests there and says so in {@code basedir}. */
    static Path root() {
        return Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
    }

    public static List<Row> read(String caseId) {
        Path file = root().resolve("data/floors/" + caseId + ".csv");
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertEquals(HEADER, lines.get(0), file + ": header");
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isEmpty()) {
                continue;
            }
            List<String> f = csvFields(lines.get(i));
            assertEquals(5, f.size(), file + " line " + (i + 1) + ": five fields");
            Row row = new Row(f.get(0), f.get(1), Long.parseLong(f.get(2)), Long.parseLong(f.get(3)), f.get(4));
            assertTrue(row.heapFloor() >= 0 && row.nativeFloor() >= 0, file + " line " + (i + 1) + ": bytes are >= 0");
            assertFalse(row.basis().isBlank(), file + " line " + (i + 1) + ": a basis");
            rows.add(row);
        }
        return rows;
    }

    /** RFC 4180 fields of one line: quoted fields may hold commas and doubled quotes. */
    static List<String> csvFields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    /** Every benchmark x params combination in {@code pkg} (its classes compiled from java-src/bench). */
    public static List<Combo> combos(String pkg) {
        List<Combo> out = new ArrayList<>();
        for (Class<?> type : classesIn(pkg)) {
            for (Method m : type.getDeclaredMethods()) {
                if (!m.isAnnotationPresent(Benchmark.class)) {
                    continue;
                }
                List<Field> paramFields = new ArrayList<>();
                List<String> variants = List.of();
                for (Field f : type.getDeclaredFields()) { // declaration order
                    Param p = f.getAnnotation(Param.class);
                    if (p == null) {
                        continue;
                    }
                    if (f.getName().equals("variant")) {
                        variants = List.of(values(f));
                    } else {
                        paramFields.add(f);
                    }
                }
                expand(type, m, paramFields, 0, new LinkedHashMap<>(), variants, out);
            }
        }
        out.sort((a, b) -> a.key().compareTo(b.key()));
        return out;
    }

    private static String[] values(Field f) {
        String[] v = f.getAnnotation(Param.class).value();
        if (v.length == 0 && f.getType().isEnum()) { // JMH runs every constant of an empty enum @Param
            Object[] constants = f.getType().getEnumConstants();
            v = new String[constants.length];
            for (int i = 0; i < v.length; i++) {
                v[i] = ((Enum<?>) constants[i]).name();
            }
        }
        return v;
    }

    private static void expand(Class<?> type, Method m, List<Field> fields, int i, LinkedHashMap<String, String> chosen,
                               List<String> variants, List<Combo> out) {
        if (i == fields.size()) {
            out.add(new Combo(type, m, new LinkedHashMap<>(chosen), variants));
            return;
        }
        for (String v : values(fields.get(i))) {
            chosen.put(fields.get(i).getName(), v);
            expand(type, m, fields, i + 1, chosen, variants, out);
        }
        chosen.remove(fields.get(i).getName());
    }

    private static List<Class<?>> classesIn(String pkg) {
        TreeSet<String> names = new TreeSet<>();
        try {
            Enumeration<URL> dirs = Floors.class.getClassLoader().getResources(pkg.replace('.', '/'));
            for (URL url : Collections.list(dirs)) {
                if (!url.getProtocol().equals("file")) {
                    continue;
                }
                File[] files = new File(url.toURI()).listFiles();
                for (File f : files == null ? new File[0] : files) {
                    String n = f.getName();
                    if (n.endsWith(".class") && !n.contains("$")) {
                        names.add(pkg + "." + n.substring(0, n.length() - ".class".length()));
                    }
                }
            }
            List<Class<?>> out = new ArrayList<>();
            for (String n : names) {
                out.add(Class.forName(n));
            }
            return out;
        } catch (IOException | URISyntaxException | ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every combination has exactly one row, and every row names a combination. */
    public static Map<String, Row> requireOneRowPerCombo(String caseId, String pkg) {
        List<Combo> combos = combos(pkg);
        assertFalse(combos.isEmpty(), "no benchmarks found in " + pkg);
        Map<String, Row> byKey = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Row r : read(caseId)) {
            String key = r.benchmark() + " [" + r.params() + "]";
            if (byKey.put(key, r) != null) {
                problems.add("two rows for " + key);
            }
        }
        for (Combo c : combos) {
            if (!byKey.containsKey(c.key())) {
                problems.add("no floor for " + c.key());
            }
        }
        for (String key : byKey.keySet()) {
            if (combos.stream().noneMatch(c -> c.key().equals(key))) {
                problems.add("a floor for no benchmark: " + key);
            }
        }
        if (!problems.isEmpty()) {
            fail("data/floors/" + caseId + ".csv: " + String.join("; ", problems));
        }
        return byKey;
    }

    // Results are stored here so that no allocation can be optimized away as unused.
    private static volatile Object sink;

    /** Rounds of calls measured at most, and how many in a row must not lower the least. */
    private static final int MAX_ROUNDS = 8;
    private static final int SETTLED_ROUNDS = 2;

    // JMH's own words for making a Blackhole outside a generated benchmark.
    private static final String BLACKHOLE_CHALLENGE =
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.";

    /**
     * Heap bytes one call allocates once warm: a fresh benchmark state with its params and
     * {@code variant} set, its @Setup run, the method called for {@code warmupMillis}, then the
     * thread's allocation counter read around rounds of at least {@code minCalls} more calls,
     * the least round's figure once two rounds in a row have not lowered it.
     */
    public static double heapBytesPerCall(Combo c, String variant, long warmupMillis, int minCalls) {
        try {
            Object state = c.type().getDeclaredConstructor().newInstance();
            for (Field f : c.type().getDeclaredFields()) {
                if (!f.isAnnotationPresent(Param.class)) {
                    continue;
                }
                String value = f.getName().equals("variant") ? variant : c.params().get(f.getName());
                f.setAccessible(true);
                f.set(state, convert(f.getType(), value));
            }
            for (Method m : c.type().getMethods()) {
                if (m.isAnnotationPresent(Setup.class)) {
                    m.invoke(state);
                }
            }
            Blackhole bh = c.method().getParameterCount() == 1 ? new Blackhole(BLACKHOLE_CHALLENGE) : null;
            Object[] args = bh == null ? new Object[0] : new Object[] {bh};
            Method op = c.method();
            long end = System.nanoTime() + warmupMillis * 1_000_000;
            int warmCalls = 0;
            while (System.nanoTime() < end || warmCalls < minCalls) {
                sink = op.invoke(state, args);
                warmCalls++;
            }
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long thread = Thread.currentThread().getId();
            int calls = Math.max(minCalls, warmCalls / 4);
            // The least of several rounds: on a loaded machine C2 may finish after the warm-up,
            // and code it has not finished optimizing can only allocate more, never less.
            double least = Double.MAX_VALUE;
            for (int round = 0, unchanged = 0; round < MAX_ROUNDS && unchanged < SETTLED_ROUNDS; round++) {
                long before = mx.getThreadAllocatedBytes(thread);
                for (int i = 0; i < calls; i++) {
                    sink = op.invoke(state, args);
                }
                double perCall = (mx.getThreadAllocatedBytes(thread) - before) / (double) calls;
                unchanged = perCall < least - 0.5 ? 0 : unchanged + 1;
                least = Math.min(least, perCall);
            }
            for (Method m : c.type().getMethods()) {
                if (m.isAnnotationPresent(TearDown.class)) {
                    m.invoke(state);
                }
            }
            if (bh != null) {
                bh.evaporate("Yes, I am Stephen Hawking, and know a thing or two about black holes.");
            }
            return least;
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(c.key() + " " + variant, e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(c.key() + " " + variant, e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object convert(Class<?> type, String value) {
        if (type == int.class) {
            return Integer.parseInt(value);
        }
        if (type == long.class) {
            return Long.parseLong(value);
        }
        if (type == String.class) {
            return value;
        }
        if (type.isEnum()) {
            return Enum.valueOf((Class<? extends Enum>) type, value);
        }
        throw new IllegalArgumentException("no conversion to " + type + " for a @Param");
    }
}
