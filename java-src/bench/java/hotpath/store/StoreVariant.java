package hotpath.store;

/** The implementations under test, selected by the benchmarks' {@code variant} @Param. */
public enum StoreVariant {
    old, optimized,
    /** The released old code, RocketMQ 5.5.1: each benchmark drives it through {@link UpstreamStore}. */
    upstream;

    public boolean isOptimized() {
        return this == optimized;
    }

    public boolean isUpstream() {
        return this == upstream;
    }

    public GetMessageResult newResult(int maxMsgNums) {
        return isOptimized() ? new OptimizedGetMessageResult(maxMsgNums) : new OldGetMessageResult();
    }

    public DispatchRequests dispatchRequests() {
        return isOptimized() ? DispatchRequests.REUSED : DispatchRequests.OLD;
    }
}
