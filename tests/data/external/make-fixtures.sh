#!/usr/bin/env bash
# The two JMH files of a benchmark that is not hotpath's: JMH's own samples
# (org.openjdk.jmh:jmh-samples:1.37 from Maven Central), run twice on one machine.
#   baseline:  C2 (the default tiered compiler)
#   candidate: C1 only (-XX:TieredStopAtLevel=1), and one more @Param value (arg=103)
# so the comparison has a real slowdown, rows run with other JVM flags, and a row with no
# partner. Not run by the tests: its output is committed beside this script.
set -euo pipefail
cd "$(dirname "$0")"
mvn -q -B dependency:get -Dartifact=org.openjdk.jmh:jmh-samples:1.37
m2=${M2_REPO:-$HOME/.m2/repository}  # where dependency:get put them
cp=$m2/org/openjdk/jmh/jmh-samples/1.37/jmh-samples-1.37.jar
cp=$cp:$m2/org/openjdk/jmh/jmh-core/1.37/jmh-core-1.37.jar
cp=$cp:$m2/net/sf/jopt-simple/jopt-simple/5.0.4/jopt-simple-5.0.4.jar
cp=$cp:$m2/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1.jar
run() {  # $1: output file, rest: extra JMH options
  out=$1; shift
  java -cp "$cp" org.openjdk.jmh.Main 'JMHSample_(02_BenchmarkModes|27_Params)' \
    -f 4 -wi 2 -w 200ms -i 3 -r 200ms -prof gc -p certainty=0,8 "$@" -rf json -rff "$out"
}
run samples-baseline.json -p arg=31,101
run samples-candidate.json -p arg=31,101,103 -jvmArgsAppend -XX:TieredStopAtLevel=1
