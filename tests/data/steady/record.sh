#!/usr/bin/env bash
# Records the real forks that tests/stats/test_steady.py classifies: each benchmark's forks
# from their first iteration (no warmup, 60 measurement iterations of 100 ms, so JMH's rawData
# holds the whole fork), with -prof gc and the study's JVM flags (hotpath.measure.profiles).
# The JSON files are kept as JMH writes them. Run from the repository root after `make build`;
# NAME=<one name> records one file again.
set -euo pipefail
JAR=target/benchmarks.jar
OUT=tests/data/steady
JVM='-Xms1g -Xmx1g -XX:+UseG1GC -XX:+AlwaysPreTouch'

record() {  # name, benchmark regex, -p arguments...
  local name=$1 regex=$2; shift 2
  if [[ -n "${NAME:-}" && "$NAME" != "$name" ]]; then return; fi
  java -jar "$JAR" "$regex" "$@" -f 2 -wi 0 -i 60 -r 100ms -prof gc \
    -jvmArgsAppend "$JVM" -rf json -rff "$OUT/$name.json" >"$OUT/$name.log" 2>&1
  rm -f "$OUT/$name.log"
}

record zip-old 'ZipMarshalBenchmark\.marshalZip$' -p payload=MAP_3K -p variant=old
record zip-buffered 'ZipMarshalBenchmark\.marshalZip$' -p payload=MAP_3K -p variant=buffered
record writer-old 'WriterCompressedMapBenchmark\.compressedMapFields$' -p entries=30 -p variant=old
record writer-optimized 'WriterCompressedMapBenchmark\.compressedMapFields$' -p entries=30 -p variant=optimized
record encoder-old 'EncoderPayloadBenchmark\.encode$' -p payload=STR_64 -p variant=old
record marshaller-old 'MarshallerCopyWriteBenchmark\.copyAndWrite$' -p size=262144 -p variant=old
