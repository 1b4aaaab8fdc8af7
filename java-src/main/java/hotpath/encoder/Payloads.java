package hotpath.encoder;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Random;

/** The write-up's payloads, built from fixed seeds. */
public enum Payloads {
    STR_64, STR_1K, BYTES_8K, OBJ_MAP;

    public Object create(long seed) {
        Random rnd = new Random(seed);
        return switch (this) {
            case STR_64 -> asciiString(rnd, 64);
            case STR_1K -> asciiString(rnd, 1024);
            case BYTES_8K -> bytes(rnd, 8 * 1024);
            case OBJ_MAP -> {
                HashMap<String, Integer> map = new HashMap<>();
                for (int i = 0; i < 10; i++) {
                    map.put("field-" + i, rnd.nextInt());
                }
                yield map;
            }
        };
    }

    public static String asciiString(Random rnd, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) ('a' + rnd.nextInt(26));
        }
        return new String(b, StandardCharsets.US_ASCII);
    }

    public static byte[] bytes(Random rnd, int length) {
        byte[] b = new byte[length];
        rnd.nextBytes(b);
        return b;
    }
}
