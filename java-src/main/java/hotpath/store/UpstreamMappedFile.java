package hotpath.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.logfile.DefaultMappedFile;

/**
 * The released mapped file, RocketMQ 5.5.1's {@code DefaultMappedFile}, over a real file in a
 * temporary directory (its name is its start offset, 0): {@code appendMessage} slices the mapping
 * per append, {@code selectMappedBuffer} slices twice and takes a reference on the file.
 */
public final class UpstreamMappedFile implements AutoCloseable {

    private final Path dir;
    private final DefaultMappedFile file;

    public UpstreamMappedFile(int size) {
        try {
            dir = Files.createTempDirectory("hotpath-store-upstream-");
            Path data = dir.resolve("00000000000000000000");
            // a caller that cannot close (a heap probe's supplier, in a JVM of its own) leaves no file behind
            dir.toFile().deleteOnExit();
            data.toFile().deleteOnExit();
            file = new DefaultMappedFile(data.toString(), size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public DefaultMappedFile file() {
        return file;
    }

    public int capacity() {
        return file.getFileSize();
    }

    public int wrotePosition() {
        return file.getWrotePosition();
    }

    public void rewind() {
        file.setWrotePosition(0);
    }

    public boolean append(byte[] data) {
        return file.appendMessage(data);
    }

    public SelectMappedBufferResult selectMappedBuffer(int pos, int size) {
        return file.selectMappedBuffer(pos, size);
    }

    public byte[] bytes(int pos, int len) {
        byte[] out = new byte[len];
        file.getMappedByteBuffer().get(pos, out);
        return out;
    }

    /**
     * Closes the file's channel and deletes it; the mapping goes with the buffer, as our model's
     * does. ({@code destroy} would unmap through Netty, which is not on the classpath.)
     */
    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(dir)) {
            file.getFileChannel().close();
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
