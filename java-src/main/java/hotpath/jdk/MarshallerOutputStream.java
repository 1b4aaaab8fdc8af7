package hotpath.jdk;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The JDK marshaller's view of its target: serialization never writes to the caller's stream
 * directly but through this thin forwarding stream, one per marshal call (16 bytes). Closing it
 * does not close the target. Shared by the cases that JDK-serialize (encoder, zip).
 */
public final class MarshallerOutputStream extends OutputStream {

    private final OutputStream out;

    public MarshallerOutputStream(OutputStream out) {
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
    }

    @Override
    public void write(byte[] b) throws IOException {
        out.write(b, 0, b.length);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }
}
