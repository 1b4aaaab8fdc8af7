package hotpath.encoder;

import static hotpath.mechanism.HeapBytesPerCall.byteArray;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import hotpath.mechanism.HeapBytesPerCall;

/**
 * What a warm encode of the benchmark's GET response allocates, per combination of mechanisms: no
 * mechanism allocates what {@link OldMemcacheEncoder} does, every mechanism what
 * {@link OptimizedMemcacheEncoder} does, and each removes its own bytes, figured here from the
 * mechanics:
 * <ul>
 *   <li>{@code direct-bytes}, per key or value of N bytes (String or byte[]): the stream (24 B), its
 *       byte[32], its growth to byte[max(N, 64)] when N > 32, and toByteArray()'s byte[N]; less the
 *       24-byte result record that takes their place;</li>
 *   <li>{@code exact-size}: the list's byte[24] and each growth to 2 x (size + cnt), and the trim
 *       copy; less the exact array, the trim copy's size;</li>
 *   <li>{@code no-mutation}: nothing.</li>
 * </ul>
 * The three touch different allocations: a combination removes the sum of its mechanisms' bytes.
 * The serialized map's stream growth depends on how serialization writes; for it
 * {@code direct-bytes} is held to the rest of the old-to-optimized difference.
 */
class MechanismMemcacheEncoderAllocationTest {

    /**
     * Three 24-byte objects: C2 scalar-replaces short-lived small objects here (the two result
     * records of {@code direct-bytes}, the key's 6-byte arrays) in some compilations and not in
     * others, as the inlining of the key's and value's encoding goes, so that the same code
     * measures 24 to 72 B apart from one JVM to the next (old at STR_1K: 6,696 and 6,720 B;
     * old+direct-bytes 4,448 and 4,496 B). The payload's copies, hundreds to tens of thousands of
     * bytes, are held to that; the other cases' figures are exact.
     */
    private static final double SCALAR_REPLACED = 3 * 24;
    private static final long STREAM = 24;
    private static final long RECORD = 24;

    @ParameterizedTest
    @EnumSource(Payloads.class)
    void eachMechanismRemovesItsOwnBytesAndTheEndsAllocateWhatOldAndOptimizedDo(Payloads payload) {
        Object value = payload.create(42);
        String key = EncoderPayloadBenchmark.KEY;
        MemcacheResponse resp = new MemcacheResponse(key, value, EncoderPayloadBenchmark.GET, (short) 0, 7);
        OldMemcacheEncoder oldEncoder = new OldMemcacheEncoder();
        OptimizedMemcacheEncoder optEncoder = new OptimizedMemcacheEncoder();
        double old = perCall(() -> oldEncoder.encodeMemcache(resp), resp, key, value);
        double optimized = perCall(() -> optEncoder.encodeMemcache(resp), resp, key, value);

        int keyLen = key.getBytes(StandardCharsets.UTF_8).length;
        int valueLen = new OptimizedMemcacheEncoder().encodeMemcache(
                new MemcacheResponse(null, value, (byte) 0x01, (short) 0, 7)).array().length - Memcache.HDR_LEN;
        long exactSize = listGrowth(Memcache.FLAGS_LEN, keyLen, valueLen);
        double directBytes = payload == Payloads.OBJ_MAP ? old - optimized - exactSize
                : streamCopies(keyLen) + streamCopies(valueLen);
        System.out.printf("encoder, %s: old %.1f B, optimized %.1f B per call; direct-bytes %.1f, exact-size %d B%n",
                payload, old, optimized, directBytes, exactSize);
        assertEquals(old - directBytes - exactSize, optimized, SCALAR_REPLACED, payload + ": the models' own difference");

        for (String variant : EncoderMechanism.everyCombination()) {
            EnumSet<EncoderMechanism> applied = EncoderMechanism.parse(variant);
            double removed = (applied.contains(EncoderMechanism.DIRECT_BYTES) ? directBytes : 0)
                    + (applied.contains(EncoderMechanism.EXACT_SIZE) ? exactSize : 0);
            MechanismMemcacheEncoder encoder = MechanismMemcacheEncoder.of(variant);
            double actual = perCall(() -> encoder.encodeMemcache(resp), resp, key, value);
            assertEquals(old - removed, actual, SCALAR_REPLACED, payload + ", " + variant + ": old " + old + " B");
        }
    }

    /** What a ByteArrayOutputStream and its toByteArray() cost for n bytes, less the result record. */
    static long streamCopies(int n) {
        return STREAM + byteArray(32) + (n > 32 ? byteArray(Math.max(n, 64)) : 0) + byteArray(n) - RECORD;
    }

    /** Old's list for a GET (flags on) with key and value: its starting array, growths and trim copy, less the exact array. */
    static long listGrowth(int flagsLen, int keyLen, int valueLen) {
        int[] adds = {1, 1, 2, 1, 1, 2, 4, 4, 8, 2, 2, keyLen, valueLen};
        long allocated = byteArray(Memcache.HDR_LEN);
        int capacity = Memcache.HDR_LEN;
        int size = 0;
        for (int cnt : adds) {
            if (size + cnt > capacity) {
                capacity = 2 * (size + cnt);
                allocated += byteArray(capacity);
            }
            size += cnt;
        }
        assertEquals(Memcache.HDR_LEN + flagsLen + keyLen + valueLen, size);
        return allocated + (size == capacity ? 0 : byteArray(size)) - byteArray(size);
    }

    private static double perCall(java.util.function.Supplier<Object> encode, MemcacheResponse resp, String key,
                                  Object value) {
        return HeapBytesPerCall.of(() -> {
            resp.key(key);
            resp.value(value);
            return encode.get();
        }, 20_000, 5000);
    }
}
