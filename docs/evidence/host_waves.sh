#!/bin/sh
# A host in waves, for a run made noisy on purpose: one core spun for 1-5 s, then left idle for
# 1-5 s, over and over (the lengths drawn from a seeded generator), as a neighbour on a shared
# host takes a vCPU for seconds at a time. Stop it with kill.
#     sh docs/evidence/host_waves.sh & make bench PROFILE=quick; kill $!
exec awk 'BEGIN {
    srand(20261128)
    while (1) {
        busy = 1 + int(rand() * 5); idle = 1 + int(rand() * 5)
        system("timeout " busy " sh -c \"while :; do :; done\"")
        system("sleep " idle)
    }
}'
