package hotpath.writer;

/** Creates an empty message for a type read off the wire. */
public final class MessageFactory {

    public Message create(short type) {
        return switch (type) {
            case PrimitiveFieldsMessage.TYPE -> new PrimitiveFieldsMessage();
            case ExchangeMessage.TYPE -> new ExchangeMessage();
            case PartitionCounters.TYPE -> new PartitionCounters();
            case CompressedMessage.TYPE -> new CompressedMessage();
            default -> throw new IllegalArgumentException("unknown message type " + type);
        };
    }
}
