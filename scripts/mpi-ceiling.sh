#!/usr/bin/env bash
# The machine's ceiling beside an MPI speed-up. For one orbitlab-cli command, in alternating rounds
# (so that a drift of the machine's speed hits every kind alike), the wall time, start-up included, of
#   1  one process, one thread (--threads 1);
#   2  two ranks under mpirun, one thread each;
#   2x two independent one-process copies at once: what two cores can do at best, whatever the
#      code does (shared caches, memory bandwidth, turbo);
# then the medians, the speed-up T1 / T2, the ceiling 2 T1 / T2x and the share of it reached.
#
#   scripts/mpi-ceiling.sh [-n ROUNDS] [--tcp | --no-single-copy] [--cli PATH] -- ARGS...
#
# ARGS are orbitlab-cli's (e.g. train --data QM7 --features irf:s=4000,r=20 ...); --tcp runs the
# two ranks over Open MPI's TCP transport on loopback (the transport of a cluster without shared
# memory) instead of shared memory. Shared memory is Open MPI's default, as a plain mpirun has it:
# large messages in one copy by the receiver (CMA); --no-single-copy turns that off, as containers
# that forbid CMA need (tests/common/MpiRunner.hpp does), so that every byte passes through the
# shared buffers in fragments the sender must push. Each run's stdout is kept in $OUT (default /tmp/mpi-ceiling),
# so the JSON's rank_counters can be read beside the times.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=3
transport=shm
cli=${ORBIT_CLI:-$root/build/app/orbitlab-cli}
while [[ $# -gt 0 ]]; do
    case $1 in
    -n) rounds=$2; shift 2 ;;
    --tcp) transport=tcp; shift ;;
    --no-single-copy) transport=nocma; shift ;;
    --cli) cli=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "mpi-ceiling: unknown option $1 (usage: scripts/mpi-ceiling.sh [-n ROUNDS] [--tcp | --no-single-copy] [--cli PATH] -- ARGS...)" >&2; exit 2 ;;
    esac
done
[[ $# -gt 0 ]] || { echo "mpi-ceiling: no orbitlab-cli arguments after --" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "mpi-ceiling: -n needs a positive number of rounds, not '$rounds'" >&2; exit 2; }
[[ -x $cli ]] || { echo "mpi-ceiling: no orbitlab-cli at $cli (build it, or give --cli PATH)" >&2; exit 2; }
out=${OUT:-/tmp/mpi-ceiling}
mkdir -p "$out"
mpi=(mpirun -np 2 --oversubscribe --bind-to none -x OMP_NUM_THREADS=1)
[[ $(id -u) == 0 ]] && mpi+=(--allow-run-as-root)
if [[ $transport == tcp ]]; then
    export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=lo
elif [[ $transport == nocma ]]; then
    export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
else
    export OMPI_MCA_btl=self,vader
fi
seconds() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }
t1=() t2=() tp=()
for ((k = 1; k <= rounds; k++)); do
    s=$(seconds); OMP_NUM_THREADS=1 "$cli" "$@" --threads 1 >"$out/one-$k.out"; t1+=("$(since "$s")")
    s=$(seconds); "${mpi[@]}" "$cli" "$@" --threads 1 >"$out/two-$k.out"; t2+=("$(since "$s")")
    s=$(seconds)
    OMP_NUM_THREADS=1 "$cli" "$@" --threads 1 >"$out/pair-a-$k.out" &
    a=$!
    OMP_NUM_THREADS=1 "$cli" "$@" --threads 1 >"$out/pair-b-$k.out" &
    b=$!
    wait "$a" "$b"
    tp+=("$(since "$s")")
    echo "round $k: one process ${t1[-1]} s, two ranks ${t2[-1]} s, two copies at once ${tp[-1]} s" >&2
done
python3 - "${#t1[@]}" "${t1[@]}" "${t2[@]}" "${tp[@]}" "$transport" <<'PY'
import statistics, sys
n = int(sys.argv[1]); v = [float(x) for x in sys.argv[2:2 + 3 * n]]; transport = sys.argv[2 + 3 * n]
t1, t2, tp = statistics.median(v[:n]), statistics.median(v[n:2 * n]), statistics.median(v[2 * n:])
speedup, ceiling = t1 / t2, 2 * t1 / tp
name = {"tcp": "tcp (loopback)", "nocma": "shared memory without single copy"}.get(transport, "shared memory")
print(f"transport {name}, {n} rounds, medians:")
print(f"  one process {t1:.2f} s, two ranks {t2:.2f} s, two copies at once {tp:.2f} s")
print(f"  speed-up {speedup:.2f} x, ceiling {ceiling:.2f} x, {speedup / ceiling:.2f} of the ceiling")
PY
