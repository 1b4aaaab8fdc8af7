package hotpath.encoder;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;

import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.internal.processors.rest.protocols.tcp.GridMemcachedMessage;
import org.apache.ignite.internal.processors.rest.protocols.tcp.GridTcpRestParser;

/**
 * The released old encoder, Apache Ignite 2.17.0 ({@code GridTcpRestParser.encode}, memcache
 * branch), driven with our responses. The memcache branch never touches the NIO session, so
 * none is passed. The release stores the encoded key and value back into its message, as our
 * old model does into ours: the key and value are set on the message before every call.
 * {@code GridMemcachedMessage}'s constructor is package-private; one message is made in the
 * constructor and reused, and so is the 4-byte opaque array while the opaque does not change.
 */
public final class UpstreamMemcacheEncoder {

    private static final MethodHandle NEW_MESSAGE;

    static {
        try {
            NEW_MESSAGE = MethodHandles.privateLookupIn(GridMemcachedMessage.class, MethodHandles.lookup())
                    .findConstructor(GridMemcachedMessage.class, MethodType.methodType(void.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final GridTcpRestParser parser = new GridTcpRestParser(false);
    private final GridMemcachedMessage msg;
    private int opaque;
    private byte[] opaqueBytes;

    public UpstreamMemcacheEncoder() {
        try {
            msg = (GridMemcachedMessage) NEW_MESSAGE.invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("cannot create a GridMemcachedMessage", e);
        }
    }

    public ByteBuffer encodeMemcache(MemcacheResponse resp) {
        if (opaqueBytes == null || opaque != resp.opaque()) {
            opaque = resp.opaque();
            opaqueBytes = OldMemcacheEncoder.bigEndian(opaque, 4);
        }
        msg.operationCode(resp.opcode());
        msg.status(resp.status());
        msg.opaque(opaqueBytes);
        msg.key(resp.key());
        msg.value(resp.value());
        try {
            return parser.encode(null, msg);
        } catch (IgniteCheckedException | java.io.IOException e) {
            throw new IllegalStateException("the release failed to encode", e);
        }
    }
}
