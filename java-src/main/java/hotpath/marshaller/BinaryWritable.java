package hotpath.marshaller;

/** An object of ours that writes its fields into a binary writer. */
public interface BinaryWritable {

    int typeId();

    void writeFields(BinaryWriter writer);
}
