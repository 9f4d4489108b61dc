#!/usr/bin/env bash
# Sanitizer suite (issue 6).
#   1. AddressSanitizer + UndefinedBehaviorSanitizer: builds every ctest suite (GUI included) in
#      build-asan with -O1 -g1 -fno-omit-frame-pointer, UBSan non-recoverable, and runs them all;
#      each suite's ctest TIMEOUT and the QTest function limit are scaled by ORBIT_ASAN_TIMEOUT_FACTOR
#      (default 10: Eigen at -O1 under ASan runs some suites 10x slower than Release). -g1 (line
#      tables, no variables) keeps file:line in the reports and compiles a third faster than -g.
#      `asan-core` does the same without the GUI: the core and CLI suites only. `asan-ci` (what
#      .ci/run runs) adds the window suites named in ORBIT_ASAN_GUI_SUITES (default: the seventeen below).
#      Sanitizer trees build without MPI (ORBIT_MPI=OFF): the MPI suite runs in the Release step,
#      and Open MPI's own start-up allocations are not ours to report.
#   2. ThreadSanitizer: builds in build-tsan only the worker / GUI suites (ORBIT_TSAN_TARGETS) and
#      runs each of them directly (not through ctest: their ctest TIMEOUT of 300 s is meant for
#      plain builds, TSan runs the same work 5-15x slower) with a per-suite limit of
#      ORBIT_TSAN_TIMEOUT seconds (default 1500) and the same QTest function limit.
#      The TSan tree is configured with ORBIT_OPENMP=OFF: libgomp is not TSan-instrumented, so the
#      OpenMP barriers would be reported as races (false positives). The worker threads (QThread)
#      are what TSan checks here; OpenMP loops are covered by ASan/UBSan and the determinism test.
#      Debian's Qt, glib and OpenCV/GDAL are not TSan-instrumented either: TSan cannot see their
#      locks and atomics (QMutex is a futex, QAtomic operations are compiled into libQt6Core), so
#      their own bookkeeping (posted-event lists, QtGui's image thread pool, the QtTest watchdog's
#      QWaitCondition, glib's wakeup eventfd, GDAL's mutexes loaded by imgcodecs) is reported as
#      races or lock-order inversions between threads of the same library (~330 reports per run
#      before). TSAN_OPTIONS therefore sets ignore_noninstrumented_modules=1 (a documented TSan
#      flag): memory accesses made by interceptors (memcpy, malloc/free, new/delete, ...) called
#      from an uninstrumented library are ignored and reports raised inside such a call are
#      dropped, while their synchronisation (pthread mutexes, condition variables, fds) is still
#      tracked and every access made by OUR instrumented code is still checked, whoever called it
#      (checked with a deliberate race between a QThread and main: still reported). So a race with
#      one of our frames in it is still reported; tests/sanitizers/tsan.supp stays empty (see there).
#      The one place our threads meet, the worker hand-off (ui/workers/Worker.*), passes requests
#      and answers through a std::mutex-guarded Mailbox, not as the payload of a Qt queued call
#      whose lock TSan cannot see. Per-suite output: build-tsan/sanitize-<suite>.log, all of it in
#      build-tsan/sanitize-tsan.log.
# Exits non-zero when a build fails, a test fails, or any sanitizer report appears in the logs.
# Builds run at the caller's priority (start it with `nice -n 10` on a shared machine).
# Usage: tests/sanitize.sh [asan|asan-core|asan-ci|tsan|all]   (env: JOBS=2, ORBIT_ASAN_DIR, ORBIT_TSAN_DIR,
#        ORBIT_TSAN_TARGETS the suites built and run under TSan, ORBIT_TSAN_TIMEOUT seconds per suite,
#        ORBIT_ASAN_TIMEOUT_FACTOR)
set -u -o pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
what="${1:-all}"
jobs="${JOBS:-2}"
asan_dir="${ORBIT_ASAN_DIR:-$root/build-asan}"
tsan_dir="${ORBIT_TSAN_DIR:-$root/build-tsan}"
tsan_timeout="${ORBIT_TSAN_TIMEOUT:-1500}"
asan_factor="${ORBIT_ASAN_TIMEOUT_FACTOR:-10}"
# The window suites `asan-ci` adds to the core's and the CLI's: every suite that opens the whole window
# (or runs the app), works in it and closes it (the close-time use of a half-destroyed panel was found
# in twelve of them). Left out: the suites of one panel or one layer alone, and the random-click run
# (docs/CONTRIBUTING.md, "Sanitizers": run it by hand in the ASan tree).
asan_gui_suites="${ORBIT_ASAN_GUI_SUITES:-test_ui_panels test_ui_kernels test_ui_training test_ui_inspect test_ui_export test_ui_session_window test_ui_share_setting test_ui_compare test_ui_learn_locality test_ui_working_state test_ui_lessons test_ui_room test_ui_sweep test_ui_share_command test_ui_registry_ranges test_ui_save_model test_ui_panel_registry}"
tsan_targets="${ORBIT_TSAN_TARGETS:-test_ui_panels test_ui_kernels test_ui_training test_ui_worker test_ui_session test_ui_settings}"
supp="$here/sanitizers"
status=0

export QT_QPA_PLATFORM=offscreen

# The project's build dependencies (a fresh machine has none of them).
bash "$root/scripts/setup.sh" deps || { echo "cannot install the build dependencies"; exit 1; }

stamp() { date -u +%H:%M:%S; }

# configure_and_build DIR "FLAGS" "DEBUG" "TARGETS" extra-cmake-args...
#   (DEBUG: -g or -g1; TARGETS empty: every ctest suite, not the programs and benchmarks no test runs;
#   TARGETS configure-only: no build)
configure_and_build() {
    local dir="$1" flags="$2" debug="$3" targets="$4"; shift 4
    cmake -S "$root" -B "$dir" -G Ninja \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 $debug" \
        -DCMAKE_CXX_FLAGS="$flags -fno-omit-frame-pointer" \
        -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" \
        -DORBIT_NATIVE=OFF -DORBIT_BUILD_GUI=ON -DORBIT_MPI=OFF -DORBIT_PYTHON=OFF "$@" >"$dir/sanitize-configure.log" 2>&1 \
        || { echo "configure failed: see $dir/sanitize-configure.log"; tail -20 "$dir/sanitize-configure.log"; return 1; }
    [ "$targets" = configure-only ] && return 0
    # ctest names each suite after its executable (tests/CMakeLists.txt orbit_add_test). The Python
    # suites (label python) are pytest runs, not executables, and are not built here (-DORBIT_PYTHON=OFF:
    # an ASan extension cannot be loaded into the system's Python).
    [ -n "$targets" ] || targets="$(ctest --test-dir "$dir" -N -LE python | sed -n 's/^ *Test *#[0-9]*: //p')"
    [ -n "$targets" ] || { echo "no test suites configured in $dir"; return 1; }
    local target_args=()
    for t in $targets; do target_args+=(--target "$t"); done
    cmake --build "$dir" -j"$jobs" "${target_args[@]}" >"$dir/sanitize-build.log" 2>&1 \
        || { echo "build failed: see $dir/sanitize-build.log"; grep -m20 -E "error|Error" "$dir/sanitize-build.log"; return 1; }
}

# scan LOG: a sanitizer report anywhere in the test output is a failure even if a test passed.
scan() {
    if grep -nE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer|ThreadSanitizer: reported|ThreadSanitizer:DEADLYSIGNAL|SUMMARY: (Address|Undefined|Thread|Leak)Sanitizer" "$1" >"$1.reports"; then
        echo "sanitizer reports in $1:"; head -40 "$1.reports"; return 1
    fi
    return 0
}

# run_asan ON|OFF|SOME   (every GUI suite too, none (the core and CLI suites only), or the core and
# CLI suites and the window suites named in ORBIT_ASAN_GUI_SUITES)
run_asan() {
    local gui="$1" targets="" only=""
    echo "[$(stamp)] ASan+UBSan: configuring and building $asan_dir (GUI suites: $gui)"
    local t0=$SECONDS
    mkdir -p "$asan_dir"
    if [ "$gui" = SOME ]; then
        # Configure once to list the suites, then build and run the core's, the CLI's and the named ones.
        configure_and_build "$asan_dir" "-fsanitize=address,undefined -fno-sanitize-recover=undefined" -g1 configure-only \
            -DORBIT_BUILD_GUI=ON -DORBIT_TEST_TIMEOUT_FACTOR="$asan_factor" || return 1
        targets="$(ctest --test-dir "$asan_dir" -N -LE python | sed -n 's/^ *Test *#[0-9]*: //p' | grep -v '^test_ui_') $asan_gui_suites"
        only="^($(echo $targets | tr ' ' '|'))\$"
        gui=ON
    fi
    configure_and_build "$asan_dir" "-fsanitize=address,undefined -fno-sanitize-recover=undefined" -g1 "$targets" \
        -DORBIT_BUILD_GUI="$gui" -DORBIT_TEST_TIMEOUT_FACTOR="$asan_factor" || return 1
    echo "[$(stamp)] built in $((SECONDS - t0)) s; running ctest"
    t0=$SECONDS
    local log="$asan_dir/sanitize-ctest.log"
    QTEST_FUNCTION_TIMEOUT=$((300000 * asan_factor)) \
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1" \
    LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp" \
        ctest --test-dir "$asan_dir" --output-on-failure -j"$jobs" -LE python ${only:+-R "$only"} >"$log" 2>&1
    local rc=$?
    grep -E "tests passed|Total Test time|\*\*\*|Failed|Timeout" "$log" | tail -30
    echo "slowest suites (s):"  # where the step's time goes, for whoever trims it next
    grep -E "Test +#[0-9]+: " "$log" | awk '{print $(NF-1), $4}' | sort -rn | head -8 | sed 's/^/  /'
    echo "[$(stamp)] ASan ctest: rc=$rc in $((SECONDS - t0)) s"
    scan "$log" || rc=1
    return $rc
}

run_tsan() {
    echo "[$(stamp)] TSan: configuring and building $tsan_dir (ORBIT_OPENMP=OFF)"
    local t0=$SECONDS
    mkdir -p "$tsan_dir"
    # Only the suites TSan runs (and what they link): the GUI/worker tests.
    configure_and_build "$tsan_dir" "-fsanitize=thread" -g "$tsan_targets" -DORBIT_OPENMP=OFF || return 1
    echo "[$(stamp)] built in $((SECONDS - t0)) s; running $tsan_targets"
    t0=$SECONDS
    local log="$tsan_dir/sanitize-tsan.log" rc=0 passed=0 total=0
    : >"$log"
    # ignore_noninstrumented_modules=1: see the header; reports with our frames stay visible.
    export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$supp/tsan.supp"
    for t in $tsan_targets; do
        local bin
        bin="$(find "$tsan_dir/tests" -type f -perm -u+x -name "$t" | head -1)"
        total=$((total + 1))
        if [ -z "$bin" ]; then
            echo "$t: not built" | tee -a "$log"; rc=1; continue
        fi
        local s0=$SECONDS r=0 out="$tsan_dir/sanitize-$t.log"
        (cd "$(dirname "$bin")" && QTEST_FUNCTION_TIMEOUT=$((tsan_timeout * 1000)) \
            timeout "$tsan_timeout" "$bin") >"$out" 2>&1 || r=$?
        { echo "=== $t"; cat "$out"; echo "=== $t: exit $r in $((SECONDS - s0)) s"; } >>"$log"
        printf '  %-18s %-16s in %4d s   %s\n' "$t" "$([ $r -eq 0 ] && echo passed || echo "FAILED (exit $r)")" \
            "$((SECONDS - s0))" "$(grep -m1 '^Totals:' "$out" | cut -d, -f1-2)"
        if [ $r -eq 0 ]; then passed=$((passed + 1)); else rc=1; fi
    done
    unset TSAN_OPTIONS
    echo "  $passed of $total TSan suites passed"
    echo "[$(stamp)] TSan suites: rc=$rc in $((SECONDS - t0)) s"
    scan "$log" || rc=1
    return $rc
}

case "$what" in
    asan) run_asan ON || status=1 ;;
    asan-core) run_asan OFF || status=1 ;;
    asan-ci) run_asan SOME || status=1 ;;
    tsan) run_tsan || status=1 ;;
    all)  run_asan ON || status=1; run_tsan || status=1 ;;
    *) echo "usage: $0 [asan|asan-core|asan-ci|tsan|all]"; exit 2 ;;
esac
echo "[$(stamp)] sanitize.sh: $([ $status -eq 0 ] && echo clean || echo FAILED)"
exit $status
