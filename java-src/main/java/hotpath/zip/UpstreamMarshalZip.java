package hotpath.zip;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

import org.apache.ignite.spi.discovery.zk.internal.ZookeeperDiscoveryImpl;
import org.apache.ignite.marshaller.jdk.JdkMarshaller;

/**
 * The released old path, Apache Ignite 2.17.0 ({@code ignite-zookeeper}):
 * {@code ZookeeperDiscoveryImpl.marshalZip(obj)}, package-private, on an instance made without its
 * constructor (which needs a running discovery SPI) and given only the field the method reads, a
 * {@code JdkMarshaller}. Called through a {@link MethodHandle}: {@code Method.invoke} would add
 * a 24 B argument array per call. Its Deflater is never ended, as in our old model.
 */
public final class UpstreamMarshalZip {

    private static final MethodHandle MARSHAL_ZIP;

    static {
        try {
            MARSHAL_ZIP = MethodHandles.privateLookupIn(ZookeeperDiscoveryImpl.class, MethodHandles.lookup())
                    .findVirtual(ZookeeperDiscoveryImpl.class, "marshalZip",
                            MethodType.methodType(byte[].class, Object.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ZookeeperDiscoveryImpl impl;

    public UpstreamMarshalZip() {
        try {
            Field unsafeField = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
            unsafeField.setAccessible(true);
            Object unsafe = unsafeField.get(null);
            impl = (ZookeeperDiscoveryImpl) unsafe.getClass().getMethod("allocateInstance", Class.class)
                    .invoke(unsafe, ZookeeperDiscoveryImpl.class);
            Field marsh = ZookeeperDiscoveryImpl.class.getDeclaredField("marsh");
            marsh.setAccessible(true);
            marsh.set(impl, new JdkMarshaller());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot prepare ZookeeperDiscoveryImpl", e);
        }
    }

    public byte[] marshalZip(Object obj) {
        try {
            return (byte[]) MARSHAL_ZIP.invokeExact(impl, obj);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("the release failed to marshalZip", e);
        }
    }
}
