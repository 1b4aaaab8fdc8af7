package hotpath.store;

/** The implementations under test, selected by the benchmarks' {@code variant} @Param. */
public enum StoreVariant {
    old, optimized,
    /** Beyond the write-up: the optimized code with a GetMessageResult of exact arrays (issue 17). */
    floor;

    /** Whether the write-up's changes apply: floor builds on them. */
    public boolean isOptimized() {
        return this != old;
    }

    public GetMessageResult newResult(int maxMsgNums) {
        return switch (this) {
            case old -> new OldGetMessageResult();
            case optimized -> new OptimizedGetMessageResult(maxMsgNums);
            case floor -> new FloorGetMessageResult(maxMsgNums);
        };
    }

    public DispatchRequests dispatchRequests() {
        return isOptimized() ? DispatchRequests.REUSED : DispatchRequests.OLD;
    }
}
