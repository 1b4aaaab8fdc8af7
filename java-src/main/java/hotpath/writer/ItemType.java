package hotpath.writer;

/** The element types a map or collection field can hold. */
public enum ItemType {
    INT, LONG, STRING, BYTE_ARR, UUID, MSG
}
