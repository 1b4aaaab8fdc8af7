package hotpath.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.EnumSet;

import org.junit.jupiter.api.Test;

import hotpath.mechanism.HeapBytesPerCall;

/**
 * What a warm write of the benchmark's exchange message allocates on the heap, per combination of
 * mechanisms: no mechanism allocates what {@link OldDirectMessageWriter} does, every mechanism what
 * {@link OptimizedDirectMessageWriter} does, and each removes its own bytes per compressed field
 * (two per message):
 * <ul>
 *   <li>{@code cached-stream}: nothing (a field in the writer's padding);</li>
 *   <li>{@code heap-scratch}: the direct buffer's heap objects (DirectByteBuffer, Cleaner,
 *       Deallocator: {@code D}); past 10 KB also each growth's direct buffer and byte[position];</li>
 *   <li>{@code scratch-writer-once}: a writer with its state stack ({@code W}), and for the counters
 *       field, whose values are messages, the nesting level it opens ({@code L}: item, stream, the
 *       stream's 16-byte UUID array).</li>
 * </ul>
 * One interaction: without {@code scratch-writer-once}, a writer made per field that holds both the
 * cached stream and the kept scratch is 40 bytes, not 32: {@code cached-stream} with
 * {@code heap-scratch} adds 8 bytes per field.
 */
class MechanismDirectMessageWriterAllocationTest {

    private static final double EXACT = 0.5;
    private static final int FIELDS = 2;

    @Test
    void eachMechanismRemovesItsOwnBytesAndTheEndsAllocateWhatOldAndOptimizedDo() {
        ExchangeMessage msg = ExchangeMessage.random(30, 42);
        double old = perCall(new OldDirectMessageWriter(new MessageFactory()), msg, 5000, 1000);
        double optimized = perCall(new OptimizedDirectMessageWriter(new MessageFactory()), msg, 5000, 1000);
        double direct = HeapBytesPerCall.of(() -> ByteBuffer.allocateDirect(OldDirectMessageWriter.SCRATCH_SIZE), 2000, 500);
        double writer = HeapBytesPerCall.of(() -> new OldDirectMessageWriter(new MessageFactory()), 20_000, 5000)
                - HeapBytesPerCall.of(MessageFactory::new, 20_000, 5000);
        double level = HeapBytesPerCall.of(() -> {
            WriterStateStack s = new WriterStateStack();
            s.forward();
            return s;
        }, 20_000, 5000) - HeapBytesPerCall.of(WriterStateStack::new, 20_000, 5000);
        System.out.printf("writer, 30 entries: old %.1f B, optimized %.1f B per message; D %.1f, W %.1f, L %.1f B%n",
                old, optimized, direct, writer, level);
        assertEquals(old - FIELDS * (direct + writer) - level, optimized, EXACT,
                "the models' own difference: D " + direct + ", W " + writer + ", L " + level);

        for (String variant : WriterMechanism.everyCombination()) {
            EnumSet<WriterMechanism> applied = WriterMechanism.parse(variant);
            boolean c = applied.contains(WriterMechanism.CACHED_STREAM);
            boolean h = applied.contains(WriterMechanism.HEAP_SCRATCH);
            boolean r = applied.contains(WriterMechanism.SCRATCH_WRITER_ONCE);
            double removed = (h ? FIELDS * direct : 0) + (r ? FIELDS * writer + level : 0) - (c && h && !r ? FIELDS * 8 : 0);
            double actual = perCall(MechanismDirectMessageWriter.of(variant), msg, 5000, 1000);
            assertEquals(old - removed, actual, EXACT, variant + ": old " + old + " B");
        }
    }

    /** Past the scratch: growth through direct buffers and byte[] copies; the ends still equal the models. */
    @Test
    void theEndsAllocateWhatOldAndOptimizedDoWhenTheFieldsOutgrowTheScratch() {
        ExchangeMessage msg = ExchangeMessage.random(500, 42);
        double old = perCall(new OldDirectMessageWriter(new MessageFactory()), msg, 1500, 300);
        double optimized = perCall(new OptimizedDirectMessageWriter(new MessageFactory()), msg, 1500, 300);
        assertEquals(old, perCall(MechanismDirectMessageWriter.of("old"), msg, 1500, 300), EXACT);
        assertEquals(optimized, perCall(MechanismDirectMessageWriter.of("optimized"), msg, 1500, 300), EXACT);
        // Growth is heap-scratch's alone: with it taken back, optimized allocates what old+scratch-writer-once does.
        assertEquals(perCall(MechanismDirectMessageWriter.of("old+scratch-writer-once"), msg, 1500, 300),
                perCall(MechanismDirectMessageWriter.of("optimized-heap-scratch"), msg, 1500, 300), EXACT);
    }

    private static double perCall(MessageWriter writer, Message msg, int warmup, int calls) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(65536);
        return HeapBytesPerCall.of(() -> MessageWire.writeCounting(writer, msg, buffer), warmup, calls);
    }
}
