package hotpath.zip;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Random;
import java.util.UUID;

/**
 * Discovery-data shapes built from our own serializable types; each name ends in the
 * approximate JDK-serialized size (checked by the tests within 15%). {@code RANDOM_*} carries
 * incompressible bytes. The write-up's two larger payloads also compress as the write-up's do:
 * their records carry a few random bytes each (an encoded address list, say), so that
 * {@code MAP_132K} deflates about 3.3:1 (to ~40 KB) and {@code LIST_1660K} about 5.2:1 (to
 * ~316 KB), where attributes alone compressed twice as well.
 */
public enum ZipPayload {
    MAP_1600B(1_600), MAP_3K(3_000), MAP_132K(132_000), RANDOM_132K(132_000),
    LIST_1660K(1_660_000), LIST_8M(8_000_000);

    public final int approxBytes;

    ZipPayload(int approxBytes) {
        this.approxBytes = approxBytes;
    }

    /** A node's discovery record: ids, an address, attributes, counters. */
    public static final class NodeRecord implements Serializable {
        private static final long serialVersionUID = 1L;
        final UUID id;
        final long order;
        final String host;
        final int[] ports;
        final HashMap<String, String> attributes;
        final byte[] blob;

        NodeRecord(Random rnd, int attrs, int blobBytes) {
            id = new UUID(rnd.nextLong(), rnd.nextLong());
            order = rnd.nextInt(100_000);
            host = "10.0." + rnd.nextInt(256) + "." + rnd.nextInt(256);
            ports = new int[] {47500 + rnd.nextInt(100), 47100 + rnd.nextInt(100)};
            attributes = new HashMap<>();
            for (int i = 0; i < attrs; i++) {
                attributes.put("org.apache.ignite.attr." + i, "value-" + rnd.nextInt(1000));
            }
            blob = new byte[blobBytes];
            rnd.nextBytes(blob);
        }
    }

    public Object create(long seed) {
        Random rnd = new Random(seed);
        return switch (this) {
            case MAP_1600B -> nodeMap(rnd, 3, 8, 0);
            case MAP_3K -> nodeMap(rnd, 6, 9, 0);
            case MAP_132K -> nodeMap(rnd, 225, 10, 90);
            case RANDOM_132K -> nodeMap(rnd, 4, 1, 32_600);
            case LIST_1660K -> nodeList(rnd, 2_985, 11, 23);
            case LIST_8M -> nodeList(rnd, 15_080, 11, 0);
        };
    }

    private static HashMap<UUID, NodeRecord> nodeMap(Random rnd, int nodes, int attrs, int blob) {
        HashMap<UUID, NodeRecord> map = new HashMap<>();
        for (int i = 0; i < nodes; i++) {
            NodeRecord r = new NodeRecord(rnd, attrs, blob);
            map.put(r.id, r);
        }
        return map;
    }

    private static ArrayList<NodeRecord> nodeList(Random rnd, int nodes, int attrs, int blob) {
        ArrayList<NodeRecord> list = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++) {
            list.add(new NodeRecord(rnd, attrs, blob));
        }
        return list;
    }
}
