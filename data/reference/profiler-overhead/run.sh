#!/bin/bash
# Native profiler in vs out of the timed forks: WriterCompressedMapBenchmark, entries=30, old and
# optimized; three profiler sets interleaved round by round, 2 forks per variant per round.
set -e
cd "$(dirname "$0")/../../.."
out=data/reference/profiler-overhead
mkdir -p $out
base="java -jar target/benchmarks.jar hotpath.writer.WriterCompressedMapBenchmark -p entries=30 -p variant=old,optimized -f 2 -wi 3 -w 1s -i 4 -r 1s -foe true"
jvm=(-jvmArgsAppend "-Xms1g -Xmx1g -XX:+UseG1GC -XX:+AlwaysPreTouch")
for round in 1 2 3 4; do
  for set in native gc none; do
    case $set in
      native) prof="-prof gc -prof hotpath.profiler.NativeAllocProfiler";;
      gc) prof="-prof gc";;
      none) prof="";;
    esac
    $base "${jvm[@]}" $prof -rf json -rff $out/round-$round-$set.json > /tmp/overhead/round-$round-$set.log 2>&1
    echo "round $round $set done $(date +%T)"
  done
done
