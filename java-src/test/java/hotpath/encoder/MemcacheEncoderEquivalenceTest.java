package hotpath.encoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MemcacheEncoderEquivalenceTest {

    private static final int[] SIZES = {0, 1, 64, 1024, 8 * 1024, 64 * 1024, 1024 * 1024};
    private static final byte[] OPCODES = {0x00, 0x09, 0x0C, 0x0D, 0x01, 0x05};
    // One floor encoder for every case: its per-thread scratch is reused across all of them.
    private static final FloorMemcacheEncoder FLOOR = new FloorMemcacheEncoder();

    /** Keys: absent, 8 bytes, 250 bytes, multi-byte UTF-8, and non-String keys. */
    static List<Object> keys(Random rnd) {
        List<Object> keys = new ArrayList<>();
        keys.add(null);
        keys.add(Payloads.asciiString(rnd, 8));
        keys.add(Payloads.asciiString(rnd, 250));
        keys.add("ключ-日本-é");
        keys.add(rnd.nextInt());
        keys.add(rnd.nextLong());
        keys.add(new java.util.ArrayList<>(List.of("a serialized key", rnd.nextInt()))); // key and value both serialized
        return keys;
    }

    /** Values of every type of the flag table, including every size. */
    static List<Object> values(Random rnd) {
        List<Object> values = new ArrayList<>();
        for (int size : SIZES) {
            values.add(Payloads.asciiString(rnd, size));
            values.add(Payloads.bytes(rnd, size));
        }
        values.add("");
        values.add("é");
        values.add("多字节 UTF-8 ✓ " + Payloads.asciiString(rnd, 100));
        values.add("emoji \ud83d\ude00 and unpaired \ud83d and \ude00 surrogates");
        values.add(true);
        values.add(false);
        values.add(rnd.nextInt());
        values.add(rnd.nextLong());
        values.add(new Date(rnd.nextLong() >>> 20));
        values.add((byte) rnd.nextInt());
        values.add(rnd.nextFloat());
        values.add(rnd.nextDouble());
        values.add(Float.NaN);
        TreeMap<String, Integer> map = new TreeMap<>();
        for (int i = 0; i < 10; i++) {
            map.put("k" + i, rnd.nextInt());
        }
        values.add(map);
        values.add(Payloads.OBJ_MAP.create(rnd.nextLong()));
        values.add(new ArrayList<>(List.of(1, "two", 3.0)));
        values.add(null);
        return values;
    }

    static Stream<Long> seeds() {
        return Stream.of(1L, 2L, 3L);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void optimizedAndFloorEncodeSamePacketsAsOldForEveryTypeSizeKeyAndOpcode(long seed) {
        Random rnd = new Random(seed);
        int checked = 0;
        for (Object key : keys(rnd)) {
            for (Object value : values(rnd)) {
                for (byte opcode : OPCODES) {
                    byte[] old = new OldMemcacheEncoder()
                            .encodeMemcache(new MemcacheResponse(key, value, opcode, (short) 1, 99)).array();
                    byte[] opt = new OptimizedMemcacheEncoder()
                            .encodeMemcache(new MemcacheResponse(key, value, opcode, (short) 1, 99)).array();
                    assertArrayEquals(old, opt, () -> "key " + key + ", value "
                            + (value == null ? null : value.getClass()) + ", opcode " + opcode);
                    byte[] floor = FLOOR.encodeMemcache(new MemcacheResponse(key, value, opcode, (short) 1, 99)).array();
                    assertArrayEquals(old, floor, () -> "floor: key " + key + ", value "
                            + (value == null ? null : value.getClass()) + ", opcode " + opcode);
                    checked++;
                }
            }
        }
        assertEquals(keys(new Random(0)).size() * values(new Random(0)).size() * OPCODES.length, checked);
    }

    @Test
    void floorLeavesTheMessageAloneAndReusesItsScratchAcrossSizes() {
        Random rnd = new Random(8);
        for (int i = 0; i < 200; i++) {
            // Serialized values that jump between small and large: the kept scratch is reused at any size.
            java.util.ArrayList<Object> value = new java.util.ArrayList<>();
            int n = rnd.nextInt(i % 3 == 0 ? 5000 : 20);
            for (int j = 0; j < n; j++) {
                value.add(rnd.nextBoolean() ? (Object) rnd.nextLong() : "v" + rnd.nextInt());
            }
            Object key = i % 4 == 0 ? value : "k" + i;
            MemcacheResponse forFloor = new MemcacheResponse(key, value, (byte) 0, (short) 0, i);
            byte[] floor = FLOOR.encodeMemcache(forFloor).array();
            assertSame(key, forFloor.key());
            assertSame(value, forFloor.value());
            byte[] old = new OldMemcacheEncoder().encodeMemcache(new MemcacheResponse(key, value, (byte) 0, (short) 0, i)).array();
            assertArrayEquals(old, floor, "response " + i);
        }
    }

    /** A serialized value of exactly {@code bytes}: a boolean[] takes one byte per element. */
    static boolean[] serializedOfSize(int bytes) throws java.io.IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream oos = new java.io.ObjectOutputStream(out)) {
            oos.writeObject(new boolean[0]);
        }
        boolean[] value = new boolean[bytes - out.size()];
        for (int i = 0; i < value.length; i += 3) {
            value[i] = true;
        }
        return value;
    }

    @Test
    void floorMatchesOldForSerializedKeysAndValuesAtTheScratchBoundaries() throws java.io.IOException {
        // The scratch starts at 512 bytes and doubles: sizes at 512 and 1024 +-1, alone and after a serialized key.
        for (int size : new int[] {511, 512, 513, 1023, 1024, 1025, 100_000}) {
            boolean[] value = serializedOfSize(size);
            for (Object key : new Object[] {"k", serializedOfSize(300), serializedOfSize(size)}) {
                MemcacheResponse forOld = new MemcacheResponse(key, value, (byte) 0, (short) 0, 5);
                byte[] old = new OldMemcacheEncoder().encodeMemcache(forOld).array();
                byte[] floor = FLOOR.encodeMemcache(new MemcacheResponse(key, value, (byte) 0, (short) 0, 5)).array();
                assertArrayEquals(old, floor, "serialized value of " + size + " bytes");
            }
        }
        assertEquals(513, OptimizedMemcacheEncoder.marshal(serializedOfSize(513)).length);
    }

    @Test
    void headerFieldsDecodeBackToLengthsAndFlags() {
        Random rnd = new Random(5);
        for (Object value : values(rnd)) {
            String key = "key-" + rnd.nextInt(1000);
            byte[] packet = new OptimizedMemcacheEncoder()
                    .encodeMemcache(new MemcacheResponse(key, value, (byte) 0x00, (short) 4, 1234)).array();
            ByteBuffer b = ByteBuffer.wrap(packet);
            assertEquals((byte) 0x81, b.get());
            assertEquals(0x00, b.get());
            int keyLen = b.getShort();
            int extras = b.get();
            assertEquals(0, b.get());
            assertEquals(4, b.getShort());
            int bodyLen = b.getInt();
            assertEquals(1234, b.getInt());
            assertEquals(0L, b.getLong());
            assertEquals(4, extras);
            assertEquals(key.getBytes(StandardCharsets.UTF_8).length, keyLen);
            assertEquals(packet.length - 24, bodyLen);
            assertEquals(0, b.getShort(), "a String key has flags 0");
            short valueFlags = b.getShort();
            assertEquals(expectedFlags(value), valueFlags, String.valueOf(value));
            byte[] keyBytes = new byte[keyLen];
            b.get(keyBytes);
            assertEquals(key, new String(keyBytes, StandardCharsets.UTF_8));
            assertEquals(bodyLen - extras - keyLen, b.remaining());
        }
    }

    @Test
    void opcodesWithoutFlagsHaveNoExtras() {
        byte[] packet = new OptimizedMemcacheEncoder()
                .encodeMemcache(new MemcacheResponse("k", "value", (byte) 0x01, (short) 0, 1)).array();
        assertEquals(0, packet[4]);
        assertEquals(24 + 1 + 5, packet.length);
    }

    @Test
    void oldEncoderMutatesTheMessageAndOptimizedLeavesItAlone() {
        Object value = Payloads.OBJ_MAP.create(1);
        MemcacheResponse forOld = new MemcacheResponse("key", value, (byte) 0, (short) 0, 1);
        new OldMemcacheEncoder().encodeMemcache(forOld);
        assertInstanceOf(byte[].class, forOld.key());
        assertInstanceOf(byte[].class, forOld.value());

        MemcacheResponse forNew = new MemcacheResponse("key", value, (byte) 0, (short) 0, 1);
        new OptimizedMemcacheEncoder().encodeMemcache(forNew);
        assertEquals("key", forNew.key());
        assertSame(value, forNew.value());
    }

    @Test
    void encodingAMutatedMessageAgainChangesTheFlags() {
        // Why the benchmark restores key and value before every call: the side effect is visible.
        MemcacheResponse resp = new MemcacheResponse("key", 42, (byte) 0, (short) 0, 1);
        byte[] first = new OldMemcacheEncoder().encodeMemcache(resp).array();
        byte[] second = new OldMemcacheEncoder().encodeMemcache(resp).array();
        assertEquals(Memcache.INT, (short) (((first[26] & 0xFF) << 8) | (first[27] & 0xFF)));
        assertEquals(Memcache.BYTE_ARR, (short) (((second[26] & 0xFF) << 8) | (second[27] & 0xFF)));
    }

    @Test
    void optimizedPacketIsExactlySizedAndOldListGrows() {
        ByteArrayList list = new ByteArrayList(24);
        list.add(new byte[24]);
        assertEquals(24, list.capacity());
        list.addInt(1);
        assertEquals(2 * (24 + 4), list.capacity());
        byte[] whole = list.entireArray();
        assertEquals(28, whole.length);
        ByteArrayList exact = new ByteArrayList(4);
        exact.addInt(7);
        assertSame(exact.entireArray(), exact.entireArray(), "a full list hands out its own array");
    }

    private static short expectedFlags(Object value) {
        if (value == null || value instanceof String) {
            return 0;
        }
        if (value instanceof Boolean) {
            return Memcache.BOOLEAN;
        }
        if (value instanceof Integer) {
            return Memcache.INT;
        }
        if (value instanceof Long) {
            return Memcache.LONG;
        }
        if (value instanceof Date) {
            return Memcache.DATE;
        }
        if (value instanceof Byte) {
            return Memcache.BYTE;
        }
        if (value instanceof Float) {
            return Memcache.FLOAT;
        }
        if (value instanceof Double) {
            return Memcache.DOUBLE;
        }
        if (value instanceof byte[]) {
            return Memcache.BYTE_ARR;
        }
        return Memcache.SERIALIZED;
    }
}
