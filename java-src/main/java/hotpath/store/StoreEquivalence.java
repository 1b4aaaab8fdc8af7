package hotpath.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Old vs optimized, and vs floor where floor differs from optimized (the GetMessageResult),
 * change by change, on generated inputs: each check throws IllegalStateException on the first
 * difference. Benchmarks call them in their setup (no timing of code that disagrees); the JUnit
 * tests call them over many seeds.
 */
public final class StoreEquivalence {

    private StoreEquivalence() {
    }

    private static void require(boolean same, String what) {
        if (!same) {
            throw new IllegalStateException("old and a newer variant differ: " + what);
        }
    }

    public static String topic(int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) ('a' + i % 26));
        }
        return sb.toString();
    }

    /** Change 1: offsets, counts, total size and commercial count; optimized and floor against old. */
    public static void requireSameResults(SelectMappedBufferResult[] selected, int count, long firstOffset) {
        GetMessageResult old = new OldGetMessageResult();
        GetMessageResult[] news = {new OptimizedGetMessageResult(count), new FloorGetMessageResult(count)};
        for (int i = 0; i < count; i++) {
            old.addMessage(selected[i % selected.length], firstOffset + i);
            for (GetMessageResult r : news) {
                r.addMessage(selected[i % selected.length], firstOffset + i);
            }
        }
        for (GetMessageResult r : news) {
            String which = r.getClass().getSimpleName() + ": ";
            require(old.getMessageQueueOffset().equals(r.getMessageQueueOffset()), which + "queue offsets");
            require(old.getMessageCount() == r.getMessageCount(), which + "message count");
            require(old.getBufferTotalSize() == r.getBufferTotalSize(), which + "total size");
            require(old.getMsgCount4Commercial() == r.getMsgCount4Commercial(), which + "commercial count");
            require(old.getMessageMapedList().equals(r.getMessageMapedList()), which + "mapped results");
            require(old.getMessageBufferList().equals(r.getMessageBufferList()), which + "buffers");
        }
    }

    /** Change 2: every field of every request, message after message, failures included. */
    public static void requireSameDispatch() {
        Random rnd = new Random(7);
        for (int i = 0; i < 500; i++) {
            DispatchRequest old;
            DispatchRequest opt;
            if (rnd.nextInt(5) == 0) {
                int size = rnd.nextInt(4096);
                boolean success = rnd.nextBoolean();
                old = DispatchRequests.OLD.blank(size, success);
                opt = DispatchRequests.REUSED.blank(size, success);
            } else {
                Object[] a = {topic(1 + rnd.nextInt(20)), rnd.nextInt(8), rnd.nextLong(), rnd.nextInt(4096),
                        rnd.nextLong(), rnd.nextLong(), rnd.nextLong(), "k" + rnd.nextInt(), "u" + rnd.nextInt(),
                        rnd.nextInt(), rnd.nextLong(), rnd.nextBoolean() ? null : Map.of("a", "b")};
                old = message(DispatchRequests.OLD, a);
                opt = message(DispatchRequests.REUSED, a);
            }
            require(old.fields().equals(opt.fields()), "dispatch request " + i + ": " + old.fields() + " vs " + opt.fields());
        }
    }

    @SuppressWarnings("unchecked")
    private static DispatchRequest message(DispatchRequests requests, Object[] a) {
        return requests.message((String) a[0], (Integer) a[1], (Long) a[2], (Integer) a[3], (Long) a[4],
                (Long) a[5], (Long) a[6], (String) a[7], (String) a[8], (Integer) a[9], (Long) a[10],
                (Map<String, String>) a[11]);
    }

    /** Change 3a: content, start offset, position 0 and limit = size. */
    public static void requireSameSelect(int size) {
        try (MappedFile old = MappedFile.temporary(1 << 16, false);
             MappedFile opt = MappedFile.temporary(1 << 16, true)) {
            byte[] data = new byte[1 << 16];
            new Random(size).nextBytes(data);
            old.append(data);
            opt.append(data);
            for (int pos : new int[] {0, 1, 100, 12_345, (1 << 16) - size}) {
                SelectMappedBufferResult a = old.selectMappedBuffer(pos, size);
                SelectMappedBufferResult b = opt.selectMappedBuffer(pos, size);
                require(a.startOffset() == b.startOffset() && a.size() == b.size(), "select at " + pos);
                require(a.byteBuffer().position() == 0 && b.byteBuffer().position() == 0, "position 0");
                require(a.byteBuffer().limit() == size && b.byteBuffer().limit() == size, "limit = size");
                require(a.byteBuffer().equals(b.byteBuffer()), "selected content at " + pos);
                require(a.byteBuffer().equals(ByteBuffer.wrap(data, pos, size)), "content is the file's");
            }
        }
    }

    /** Change 3b: the same file bytes after the same appends. */
    public static void requireSameAppends(int size) {
        try (MappedFile old = MappedFile.temporary(1 << 16, false);
             MappedFile opt = MappedFile.temporary(1 << 16, true)) {
            Random rnd = new Random(size);
            while (true) {
                byte[] msg = new byte[1 + rnd.nextInt(size)];
                rnd.nextBytes(msg);
                boolean a = old.append(msg);
                boolean b = opt.append(msg);
                require(a == b, "append accepted");
                if (!a) {
                    break;
                }
            }
            require(old.wrotePosition() == opt.wrotePosition(), "write position");
            require(Arrays.equals(old.bytes(0, old.capacity()), opt.bytes(0, opt.capacity())), "file bytes");
        }
    }

    /** Change 4: buckets, max, failures and slow-put warnings for ok, failed and exceptional puts. */
    public static void requireSameStats() {
        PutMessageStats old = runPuts(false);
        PutMessageStats opt = runPuts(true);
        require(Arrays.equals(old.buckets(), opt.buckets()), "latency buckets");
        require(old.max() == opt.max(), "max latency");
        require(old.failures() == opt.failures(), "failures");
        require(old.slowPutWarnings() == opt.slowPutWarnings(), "slow-put warnings");
    }

    /** A deterministic sequence of puts: latencies from 0 to 12 s, failures, exceptions, late completions. */
    public static PutMessageStats runPuts(boolean optimized) {
        Random rnd = new Random(3);
        long[] now = {0};
        List<CompletableFuture<PutMessagePath.PutResult>> pending = new ArrayList<>();
        long[] latency = {0};
        int[] kind = {0};
        PutMessagePath path = new PutMessagePath(msg -> {
            now[0] += latency[0]; // the store's time, seen by the stats at completion
            return switch (kind[0]) {
                case 0 -> CompletableFuture.completedFuture(new PutMessagePath.PutResult(true));
                case 1 -> CompletableFuture.completedFuture(new PutMessagePath.PutResult(false));
                case 2 -> CompletableFuture.failedFuture(new IllegalStateException("disk full"));
                default -> {
                    CompletableFuture<PutMessagePath.PutResult> f = new CompletableFuture<>();
                    pending.add(f);
                    yield f;
                }
            };
        }, () -> now[0], optimized);
        long[] choices = {0, 5, 30, 70, 150, 400, 501, 900, 1500, 2500, 3500, 4500, 7000, 12_000};
        for (int i = 0; i < 2000; i++) {
            latency[0] = choices[rnd.nextInt(choices.length)];
            int r = rnd.nextInt(10);
            kind[0] = r < 6 ? 0 : r < 8 ? 1 : r < 9 ? 2 : 3;
            path.putMessage("m" + i);
        }
        for (CompletableFuture<PutMessagePath.PutResult> f : pending) {
            now[0] += 10;
            f.complete(new PutMessagePath.PutResult(true));
        }
        return path.stats();
    }

    /** Change 5: identical consume-queue file bytes and keys. */
    public static void requireSameConsumeQueue(int topicLength) {
        String topic = topic(topicLength);
        try (MappedFile oldFile = MappedFile.temporary(ConsumeQueue.ENTRY_SIZE * 1000, false);
             MappedFile optFile = MappedFile.temporary(ConsumeQueue.ENTRY_SIZE * 1000, true)) {
            ConcurrentHashMap<String, Long> oldTable = new ConcurrentHashMap<>();
            ConcurrentHashMap<String, Long> optTable = new ConcurrentHashMap<>();
            ConsumeQueue old = new ConsumeQueue(topic, 3, oldFile, oldTable, false);
            ConsumeQueue opt = new ConsumeQueue(topic, 3, optFile, optTable, true);
            Random rnd = new Random(topicLength);
            for (int i = 0; i < 700; i++) {
                long off = rnd.nextLong() >>> 1;
                int size = rnd.nextInt(1 << 20);
                long tags = rnd.nextLong();
                require(old.putMessagePositionInfo(off, size, tags) == opt.putMessagePositionInfo(off, size, tags),
                        "consume-queue offset");
            }
            require(old.topicQueueKey().equals(opt.topicQueueKey()), "key");
            require(oldTable.equals(optTable), "topic-queue table");
            require(Arrays.equals(oldFile.bytes(0, oldFile.capacity()), optFile.bytes(0, optFile.capacity())),
                    "consume-queue file bytes");
        }
    }

    /** The combined pull: select + result building give the same result, optimized and floor. */
    public static void requireSamePull(int messages) {
        try (MappedFile old = MappedFile.temporary(1 << 20, false);
             MappedFile opt = MappedFile.temporary(1 << 20, true)) {
            Random rnd = new Random(messages);
            GetMessageResult a = new OldGetMessageResult();
            GetMessageResult b = new OptimizedGetMessageResult(messages);
            GetMessageResult c = new FloorGetMessageResult(messages);
            for (int i = 0; i < messages; i++) {
                byte[] msg = new byte[1 + rnd.nextInt(5000)];
                rnd.nextBytes(msg);
                int pos = old.wrotePosition();
                old.append(msg);
                opt.append(msg);
                a.addMessage(old.selectMappedBuffer(pos, msg.length), 5_000_000L + i);
                b.addMessage(opt.selectMappedBuffer(pos, msg.length), 5_000_000L + i);
                c.addMessage(opt.selectMappedBuffer(pos, msg.length), 5_000_000L + i);
            }
            for (GetMessageResult r : new GetMessageResult[] {b, c}) {
                String which = r.getClass().getSimpleName() + ": ";
                require(a.getMessageQueueOffset().equals(r.getMessageQueueOffset()), which + "offsets");
                require(a.getBufferTotalSize() == r.getBufferTotalSize(), which + "total size");
                require(a.getMsgCount4Commercial() == r.getMsgCount4Commercial(), which + "commercial count");
                require(a.getMessageBufferList().equals(r.getMessageBufferList()), which + "message bytes");
            }
        }
    }
}
