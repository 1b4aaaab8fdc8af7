package hotpath.store;

/** How a pull ended; a result starts without one and the pull sets it. */
public enum GetMessageStatus {
    FOUND, NO_MATCHED_MESSAGE, MESSAGE_WAS_REMOVING, OFFSET_FOUND_NULL, OFFSET_OVERFLOW_BADLY,
    OFFSET_OVERFLOW_ONE, OFFSET_TOO_SMALL, NO_MATCHED_LOGIC_QUEUE, NO_MESSAGE_IN_QUEUE, OFFSET_RESET
}
