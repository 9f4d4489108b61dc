#!/usr/bin/env bash
# Sanitizer suite (issue 6).
#   1. AddressSanitizer + UndefinedBehaviorSanitizer: builds the whole project (GUI included) in
#      build-asan with -O1 -fno-omit-frame-pointer, UBSan non-recoverable, and runs every ctest suite.
#   2. ThreadSanitizer: builds in build-tsan and runs the worker / GUI suites (ctest -R '<ui tests>').
#      The TSan tree is configured with ORBIT_OPENMP=OFF: libgomp is not TSan-instrumented, so the
#      OpenMP barriers would be reported as races (false positives). The worker threads (QThread)
#      are what TSan checks here; OpenMP loops are covered by ASan/UBSan and the determinism test.
# Exits non-zero when a build fails, a test fails, or any sanitizer report appears in the logs.
# Builds run at the caller's priority (start it with `nice -n 10` on a shared machine).
# Usage: tests/sanitize.sh [asan|tsan|all]   (env: JOBS=2, ORBIT_ASAN_DIR, ORBIT_TSAN_DIR,
#        ORBIT_TSAN_TESTS regex of the suites run under TSan)
set -u -o pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
what="${1:-all}"
jobs="${JOBS:-2}"
asan_dir="${ORBIT_ASAN_DIR:-$root/build-asan}"
tsan_dir="${ORBIT_TSAN_DIR:-$root/build-tsan}"
tsan_tests="${ORBIT_TSAN_TESTS:-^test_ui_}"
tsan_targets="${ORBIT_TSAN_TARGETS:-test_ui_panels test_ui_kernels test_ui_training test_ui_worker test_ui_session test_ui_settings}"
supp="$here/sanitizers"
status=0

export QT_QPA_PLATFORM=offscreen

# The project's build dependencies (a fresh machine has none of them).
bash "$root/scripts/setup.sh" deps || { echo "cannot install the build dependencies"; exit 1; }

stamp() { date -u +%H:%M:%S; }

# configure_and_build DIR "FLAGS" "TARGETS" extra-cmake-args...   (TARGETS empty: everything)
configure_and_build() {
    local dir="$1" flags="$2" targets="$3"; shift 3
    cmake -S "$root" -B "$dir" -G Ninja \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
        -DCMAKE_CXX_FLAGS="$flags -fno-omit-frame-pointer" \
        -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" \
        -DORBIT_NATIVE=OFF -DORBIT_BUILD_GUI=ON "$@" >"$dir/sanitize-configure.log" 2>&1 \
        || { echo "configure failed: see $dir/sanitize-configure.log"; tail -20 "$dir/sanitize-configure.log"; return 1; }
    local target_args=()
    for t in $targets; do target_args+=(--target "$t"); done
    cmake --build "$dir" -j"$jobs" "${target_args[@]}" >"$dir/sanitize-build.log" 2>&1 \
        || { echo "build failed: see $dir/sanitize-build.log"; grep -m20 -E "error|Error" "$dir/sanitize-build.log"; return 1; }
}

# scan LOG: a sanitizer report anywhere in the test output is a failure even if a test passed.
scan() {
    if grep -nE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer|SUMMARY: (Address|Undefined|Thread|Leak)Sanitizer" "$1" >"$1.reports"; then
        echo "sanitizer reports in $1:"; head -40 "$1.reports"; return 1
    fi
    return 0
}

run_asan() {
    echo "[$(stamp)] ASan+UBSan: configuring and building $asan_dir"
    local t0=$SECONDS
    mkdir -p "$asan_dir"
    configure_and_build "$asan_dir" "-fsanitize=address,undefined -fno-sanitize-recover=undefined" "" || return 1
    echo "[$(stamp)] built in $((SECONDS - t0)) s; running ctest"
    t0=$SECONDS
    local log="$asan_dir/sanitize-ctest.log"
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1" \
    LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp" \
        ctest --test-dir "$asan_dir" --output-on-failure -j"$jobs" --timeout 1500 >"$log" 2>&1
    local rc=$?
    grep -E "tests passed|Total Test time|\*\*\*|Failed|Timeout" "$log" | tail -30
    echo "[$(stamp)] ASan ctest: rc=$rc in $((SECONDS - t0)) s"
    scan "$log" || rc=1
    return $rc
}

run_tsan() {
    echo "[$(stamp)] TSan: configuring and building $tsan_dir (ORBIT_OPENMP=OFF)"
    local t0=$SECONDS
    mkdir -p "$tsan_dir"
    # Only the suites TSan runs (and what they link): the GUI/worker tests.
    configure_and_build "$tsan_dir" "-fsanitize=thread" "$tsan_targets" -DORBIT_OPENMP=OFF || return 1
    echo "[$(stamp)] built in $((SECONDS - t0)) s; running ctest -R '$tsan_tests'"
    t0=$SECONDS
    local log="$tsan_dir/sanitize-ctest.log"
    TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:suppressions=$supp/tsan.supp" \
        ctest --test-dir "$tsan_dir" --output-on-failure -R "$tsan_tests" --timeout 1500 >"$log" 2>&1
    local rc=$?
    grep -E "tests passed|Total Test time|\*\*\*|Failed|Timeout" "$log" | tail -30
    if ! grep -q "tests passed" "$log" || grep -q "No tests were found" "$log"; then
        echo "no TSan tests ran (regex '$tsan_tests')"; rc=1
    fi
    echo "[$(stamp)] TSan ctest: rc=$rc in $((SECONDS - t0)) s"
    scan "$log" || rc=1
    return $rc
}

case "$what" in
    asan) run_asan || status=1 ;;
    tsan) run_tsan || status=1 ;;
    all)  run_asan || status=1; run_tsan || status=1 ;;
    *) echo "usage: $0 [asan|tsan|all]"; exit 2 ;;
esac
echo "[$(stamp)] sanitize.sh: $([ $status -eq 0 ] && echo clean || echo FAILED)"
exit $status
