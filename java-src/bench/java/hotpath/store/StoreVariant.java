package hotpath.store;

/** The implementations under test, selected by the benchmarks' {@code variant} @Param. */
public enum StoreVariant {
    old, optimized;

    public boolean isOptimized() {
        return this == optimized;
    }

    public GetMessageResult newResult(int maxMsgNums) {
        return isOptimized() ? new OptimizedGetMessageResult(maxMsgNums) : new OldGetMessageResult();
    }

    public DispatchRequests dispatchRequests() {
        return isOptimized() ? DispatchRequests.REUSED : DispatchRequests.OLD;
    }
}
