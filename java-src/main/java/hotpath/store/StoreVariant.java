package hotpath.store;

/** The implementations under test, selected by the benchmarks' {@code variant} @Param. */
public enum StoreVariant {
    old, optimized,
    /** Beyond the write-up: the optimized code with a GetMessageResult of exact arrays (issue 17). */
    floor,
    /** The released old code, RocketMQ 5.5.1: each benchmark drives it through {@link UpstreamStore}. */
    upstream;

    /** Whether the write-up's changes apply: floor builds on them; the release predates them. */
    public boolean isOptimized() {
        return this == optimized || this == floor;
    }

    public boolean isUpstream() {
        return this == upstream;
    }

    public GetMessageResult newResult(int maxMsgNums) {
        return switch (this) {
            case old -> new OldGetMessageResult();
            case optimized -> new OptimizedGetMessageResult(maxMsgNums);
            case floor -> new FloorGetMessageResult(maxMsgNums);
            // The benchmarks drive the release through UpstreamStore; where a model result is
            // asked for, the release's shape is old's.
            case upstream -> new OldGetMessageResult();
        };
    }

    public DispatchRequests dispatchRequests() {
        return isOptimized() ? DispatchRequests.REUSED : DispatchRequests.OLD;
    }
}
