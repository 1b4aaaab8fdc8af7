package hotpath.peak;

import java.util.List;

/** A case's calls to measure; implementations need a public no-argument constructor. */
public interface PeakCalls {

    List<PeakCall> calls();
}
