package hotpath.utf8;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

class Utf8Test {

    private static void assertSameAsGetBytes(String s) {
        byte[] expected = s.getBytes(StandardCharsets.UTF_8);
        assertEquals(expected.length, Utf8.length(s), () -> "length of " + escape(s));
        byte[] dst = new byte[expected.length + 6];
        Arrays.fill(dst, (byte) 0x5A);
        int end = Utf8.encode(s, dst, 3);
        assertEquals(3 + expected.length, end);
        assertArrayEquals(expected, Arrays.copyOfRange(dst, 3, end), () -> escape(s));
        assertEquals(0x5A, dst[2], "nothing written before the offset");
        assertEquals(0x5A, dst[end], "nothing written after the end");
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        s.chars().forEach(c -> sb.append(String.format("\\u%04x", c)));
        return sb.toString();
    }

    @Test
    void encodesEdgeStringsAsGetBytesDoes() {
        String[] edges = {"", "a", "\u007f", "\u0080", "\u07ff", "\u0800", "\uffff", "é", "日本", "ключ",
                "\ud83d\ude00", "a\ud83d\ude00b", "\ud83d", "\ude00", "x\ud83d", "\ude00\ud83d", "\ud83d\ud83d\ude00",
                "\ud800\udc00", "\udbff\udfff", "多字节 UTF-8 ✓"};
        for (String s : edges) {
            assertSameAsGetBytes(s);
        }
    }

    @Test
    void encodesGeneratedStringsOfEveryRangeAsGetBytesDoes() {
        Random rnd = new Random(41);
        char[][] ranges = {{0, 0x7f}, {0x80, 0x7ff}, {0x800, 0xd7ff}, {0xd800, 0xdbff}, {0xdc00, 0xdfff}, {0xe000, 0xffff}};
        for (int i = 0; i < 5000; i++) {
            int n = rnd.nextInt(i % 10 == 0 ? 2000 : 20);
            char[] chars = new char[n];
            for (int j = 0; j < n; j++) {
                // Mostly ASCII with a sprinkling of every other range, lone surrogates included.
                char[] r = rnd.nextInt(4) == 0 ? ranges[rnd.nextInt(ranges.length)] : ranges[0];
                chars[j] = (char) (r[0] + rnd.nextInt(r[1] - r[0] + 1));
            }
            assertSameAsGetBytes(new String(chars));
        }
    }
}
