package hotpath.writer;

/**
 * A message in the direct (resumable) wire format. {@link #writeTo} is called again after every
 * buffer swap and resumes at the field the writer's state cursor points to.
 */
public interface Message {

    short directType();

    /** Writes as much as fits; returns true once the whole message is written. */
    boolean writeTo(MessageWriter writer);

    /** Reads the fields back (the reader holds the complete bytes, no resumption needed). */
    void readFrom(MessageReader reader);
}
