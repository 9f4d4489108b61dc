#!/usr/bin/env bash
# Fuzzes every loader and parser of Orbit Lab with libFuzzer (issue 6).
#   tests/fuzz/run-fuzzers.sh SECONDS [TARGET ...]
# Installs clang + compiler-rt from Debian when missing, builds the targets in build-fuzz (the
# parsers instrumented with clang -fsanitize=fuzzer-no-link,address,undefined, see
# tests/fuzz/CMakeLists.txt; not part of the normal build). Then, per target:
#   1. replays the saved regression reproducers (tests/fixtures/data/fuzz-regressions/<target>/);
#   2. replays the seed corpus (the test fixtures, tests/fuzz/seeds, generated MAT files and saved
#      models) once;
#   3. fuzzes for SECONDS, starting from the seeds (SECONDS=0: no fuzzing, the two replays only).
# Reproducers (crash-*, leak-*, oom-*, timeout-*, slow-unit-*) are kept in
# build-fuzz/findings/<target>/. Exits non-zero on any finding.
# Builds run at the caller's priority (start it with `nice -n 10` on a shared machine).
# env: ORBIT_FUZZ_DIR (build dir), ORBIT_FUZZ_CORE_LIB (a built liborbitcore.a, Release, same
#      sources; default: build one in build-fuzz/core), JOBS (build jobs, default 2),
#      ORBIT_FUZZ_RSS_MB (default 2048), ORBIT_FUZZ_SEED (libFuzzer -seed; default random).
set -u -o pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds="${1:-20}"
shift || true
build="${ORBIT_FUZZ_DIR:-$root/build-fuzz}"
jobs="${JOBS:-2}"
rss="${ORBIT_FUZZ_RSS_MB:-2048}"
fuzz_seed="${ORBIT_FUZZ_SEED:-0}"  # libFuzzer: 0 picks a random seed
fixtures="$root/tests/fixtures/data"
regressions="$fixtures/fuzz-regressions"
all_targets=(idx cifar amat image digits mat extxyz csv autodetect spec session model)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")

stamp() { date -u +%H:%M:%S; }
t_start=$SECONDS

# --- toolchain -------------------------------------------------------------------------------
# The project's own build dependencies (Eigen, OpenCV, matio, Qt for the session target, ...).
bash "$root/scripts/setup.sh" deps
have_libfuzzer() {
    command -v clang++ >/dev/null 2>&1 || return 1
    local tmp; tmp="$(mktemp -d)"
    printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' >"$tmp/f.cpp"
    clang++ -fsanitize=fuzzer,address,undefined "$tmp/f.cpp" -o "$tmp/f" >/dev/null 2>&1
    local ok=$?
    rm -rf "$tmp"
    return $ok
}
if ! have_libfuzzer; then
    echo "[$(stamp)] installing clang and compiler-rt (libFuzzer) from Debian"
    sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq clang libclang-rt-dev \
        || { echo "cannot install clang/libFuzzer"; exit 1; }
    have_libfuzzer || { echo "clang cannot build a libFuzzer target"; exit 1; }
fi

# --- build -----------------------------------------------------------------------------------
# 1. the core library, a normal gcc Release build (ccache shares it with the other build trees);
# 2. the fuzz project (tests/fuzz/CMakeLists.txt), clang, parsers instrumented, linking 1.
echo "[$(stamp)] building fuzz targets in $build"
mkdir -p "$build"
core_lib="${ORBIT_FUZZ_CORE_LIB:-}"  # reuse the liborbitcore.a of an up-to-date Release tree
if [ -z "$core_lib" ]; then
    mkdir -p "$build/core"
    cmake -S "$root" -B "$build/core" -G Ninja -DCMAKE_BUILD_TYPE=Release -DORBIT_BUILD_GUI=OFF \
        -DORBIT_BUILD_TESTS=OFF >"$build/core-configure.log" 2>&1 || { tail -30 "$build/core-configure.log"; exit 1; }
    cmake --build "$build/core" -j"$jobs" --target orbitcore >"$build/core-build.log" 2>&1 \
        || { grep -m30 -E "error" "$build/core-build.log"; echo "core build failed: $build/core-build.log"; exit 1; }
    core_lib="$build/core/core/liborbitcore.a"
fi
# The instrumented parsers must see the vector ISA the core library was built for (Eigen's alignment).
native=OFF
core_cache="$(dirname "$core_lib")/../CMakeCache.txt"
grep -q "^ORBIT_NATIVE:BOOL=ON" "$core_cache" 2>/dev/null && native=ON
cmake -S "$here" -B "$build/targets" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=None \
    -DORBIT_CORE_LIB="$core_lib" -DORBIT_NATIVE="$native" \
    >"$build/fuzz-configure.log" 2>&1 || { tail -30 "$build/fuzz-configure.log"; exit 1; }
cmake --build "$build/targets" -j"$jobs" --target orbit_fuzzers >"$build/fuzz-build.log" 2>&1 \
    || { grep -m30 -E "error" "$build/fuzz-build.log"; echo "build failed: $build/fuzz-build.log"; exit 1; }
echo "[$(stamp)] built in $((SECONDS - t_start)) s"

# --- seed corpora ----------------------------------------------------------------------------
seeds="$build/seeds"
rm -rf "$seeds"; mkdir -p "$seeds"
seed_dirs() {  # the read-only seed directories of a target
    case "$1" in
        idx) echo "$fixtures/idx" ;;
        cifar) echo "$fixtures/cifar" ;;
        amat) echo "$fixtures/amat" ;;
        image) echo "$fixtures/image $fixtures/folder/cat $fixtures/folder_mixed_channels/b" ;;
        digits) echo "$fixtures/digits $fixtures/image" ;;
        mat) echo "$seeds/mat" ;;
        extxyz) echo "$fixtures/xyz $fixtures/unsafe $root/resources/data/g2.extxyz" ;;
        csv) echo "$fixtures/csv $fixtures/unsafe" ;;
        autodetect) echo "$fixtures/idx $fixtures/cifar $fixtures/amat $fixtures/image $fixtures/xyz $fixtures/csv $seeds/mat" ;;
        spec) echo "$here/seeds/spec" ;;
        session) echo "$here/seeds/session" ;;
        model) echo "$seeds/model $root/tests/fixtures/models" ;;
    esac
}
mkdir -p "$seeds/mat" && "$build/targets/orbit_fuzz_make_seeds" "$seeds/mat" || { echo "cannot write MAT seeds"; exit 1; }
mkdir -p "$seeds/model" && "$build/targets/orbit_fuzz_make_model_seeds" "$seeds/model" || { echo "cannot write model seeds"; exit 1; }
# libFuzzer reads corpus directories only: gather each target's seed files into build-fuzz/seeds/<target>.
gather_seeds() {
    local dir="$seeds/all-$1" src
    mkdir -p "$dir"
    for src in $(seed_dirs "$1"); do
        if [ -d "$src" ]; then find "$src" -maxdepth 1 -type f -exec cp {} "$dir/" \; ; else cp "$src" "$dir/"; fi
    done
    echo "$dir"
}

max_len() {
    case "$1" in
        spec) echo 1024 ;;
        session) echo 8192 ;;
        *) echo 65536 ;;
    esac
}

# Leaks and reports inside the uninstrumented system libraries we cannot fix are suppressed,
# documented in lsan.supp; everything else is a finding.
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=0:abort_on_error=1"
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export QT_QPA_PLATFORM=offscreen
export OMP_NUM_THREADS=1

status=0
summary="$build/fuzz-summary.txt"
: >"$summary"
printf "%-11s %6s %6s %12s %8s %10s %s\n" target repros seeds execs exec/s seconds result | tee -a "$summary"
for t in "${targets[@]}"; do
    bin="$build/targets/fuzz_$t"
    [ -x "$bin" ] || { echo "no fuzz target $t"; status=1; continue; }
    findings="$build/findings/$t"; corpus="$build/corpus/$t"
    mkdir -p "$findings" "$corpus"
    t0=$SECONDS
    result=ok
    # 1. the regression reproducers must all pass (each file run once)
    mapfile -t repro < <(find "$regressions/$t" -maxdepth 1 -type f ! -name '*.expect' ! -name '*.md' 2>/dev/null | sort)
    if [ ${#repro[@]} -gt 0 ]; then
        if ! timeout -k 10 600 "$bin" -rss_limit_mb="$rss" -timeout=30 -artifact_prefix="$findings/" "${repro[@]}" \
                >"$findings/regressions.log" 2>&1; then
            echo "$t: a regression reproducer fails again (see $findings/regressions.log)"; result="REGRESSION"; status=1
        fi
    fi
    # 2. the seed corpus, each input once (-runs=0: execute the corpus, no mutations; no -max_len,
    #    which would cut longer seeds)
    seed_dir="$(gather_seeds "$t")"
    nseeds=$(find "$seed_dir" -type f | wc -l)
    if ! timeout -k 10 600 "$bin" -runs=0 -rss_limit_mb="$rss" -timeout=30 -artifact_prefix="$findings/" \
            "$seed_dir" >"$findings/seeds.log" 2>&1; then
        echo "$t: a seed input fails (see $findings/seeds.log)"; result="SEED FAILS"; status=1
        grep -m1 -A12 -E "ERROR: |runtime error|unexpected exception|out-of-memory|timeout after" "$findings/seeds.log" | head -20
    fi
    # 3. fuzz
    execs=-; speed=-
    if [ "$seconds" -gt 0 ]; then
        timeout -k 10 $((seconds + 120)) "$bin" -max_total_time="$seconds" -max_len="$(max_len "$t")" \
            -seed="$fuzz_seed" -rss_limit_mb="$rss" -timeout=20 -print_final_stats=1 -artifact_prefix="$findings/" \
            "$corpus" "$seed_dir" >"$findings/fuzz.log" 2>&1
        rc=$?
        execs=$(grep -o "stat::number_of_executed_units: *[0-9]*" "$findings/fuzz.log" | grep -o "[0-9]*$" | tail -1)
        speed=$(grep -o "stat::average_exec_per_sec: *[0-9]*" "$findings/fuzz.log" | grep -o "[0-9]*$" | tail -1)
        if [ $rc -ne 0 ]; then
            result="FINDING (rc=$rc)"; status=1
            grep -m1 -A12 -E "ERROR: |runtime error|unexpected exception|out-of-memory|timeout after" "$findings/fuzz.log" | head -20
        fi
    fi
    found=$(ls "$findings" | grep -E "^(crash|leak|oom|timeout|slow-unit)-" || true)
    if [ -n "$found" ]; then
        result="$result; findings: $(echo $found | tr '\n' ' ')"; status=1
    fi
    printf "%-11s %6s %6s %12s %8s %10s %s\n" "$t" "${#repro[@]}" "$nseeds" "${execs:-?}" "${speed:-?}" \
        "$((SECONDS - t0))" "$result" | tee -a "$summary"
done
echo "[$(stamp)] run-fuzzers.sh: $((SECONDS - t_start)) s in total; $([ $status -eq 0 ] && echo no findings || echo FINDINGS in $build/findings)"
exit $status
