package hotpath.utf8;

/**
 * UTF-8 into a caller's array, byte for byte what {@code String.getBytes(UTF_8)} returns
 * (an unpaired surrogate becomes {@code '?'}), without the intermediate byte[]: the floor
 * variants size their output first and then encode into it.
 */
public final class Utf8 {

    private Utf8() {
    }

    /**
     * How many chars at the start of {@code s} are ASCII (one byte each in UTF-8). A caller that
     * sizes and then encodes passes it to both, so that an ASCII string is scanned once.
     */
    public static int asciiPrefix(String s) {
        int n = s.length();
        int i = 0;
        while (i < n && s.charAt(i) < 0x80) {
            i++;
        }
        return i;
    }

    /** The length of {@code s} in UTF-8. */
    public static int length(String s) {
        return length(s, asciiPrefix(s));
    }

    /** The length of {@code s} in UTF-8, its first {@code asciiPrefix} chars known to be ASCII. */
    public static int length(String s, int asciiPrefix) {
        int n = s.length();
        int len = n;
        for (int i = asciiPrefix; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                len += 1;
            } else if (!Character.isSurrogate(c)) {
                len += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                len += 2; // two chars, four bytes
                i++;
            } // else: an unpaired surrogate, one '?'
        }
        return len;
    }

    /** Encodes {@code s} into {@code dst} from {@code off}; returns the offset after the last byte. */
    public static int encode(String s, byte[] dst, int off) {
        return encode(s, asciiPrefix(s), dst, off);
    }

    /** As {@link #encode(String, byte[], int)}, the first {@code asciiPrefix} chars known to be ASCII. */
    @SuppressWarnings("deprecation")
    public static int encode(String s, int asciiPrefix, byte[] dst, int off) {
        int n = s.length();
        int i = asciiPrefix;
        // The ASCII prefix in bulk: getBytes(int, int, byte[], int) keeps each char's low byte,
        // exact below 0x80, and copies without an intermediate array.
        s.getBytes(0, i, dst, off);
        off += i;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                dst[off++] = (byte) c;
            } else if (c < 0x800) {
                dst[off++] = (byte) (0xC0 | c >> 6);
                dst[off++] = (byte) (0x80 | c & 0x3F);
            } else if (!Character.isSurrogate(c)) {
                dst[off++] = (byte) (0xE0 | c >> 12);
                dst[off++] = (byte) (0x80 | c >> 6 & 0x3F);
                dst[off++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                dst[off++] = (byte) (0xF0 | cp >> 18);
                dst[off++] = (byte) (0x80 | cp >> 12 & 0x3F);
                dst[off++] = (byte) (0x80 | cp >> 6 & 0x3F);
                dst[off++] = (byte) (0x80 | cp & 0x3F);
            } else {
                dst[off++] = '?';
            }
        }
        return off;
    }
}
