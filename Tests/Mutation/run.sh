#!/usr/bin/env bash
# Mutation testing: plants one mutant at a time in the package's sources, builds, runs the tests of the module
# it is in, and reports the mutants no test noticed.
#
#   Tests/Mutation/run.sh [--base REV] [--seed N] [--max N] [--filter F] [--timeout SECONDS] [--min-score P]
#                         [--list] [PATH...]
#
# What is mutated: with --base REV, the lines that `git diff REV` adds or changes in Swift files under Sources/
# (untracked Swift files there count whole); with PATHs, every line of the Swift files named or under the
# folders named; with both, the changed lines of those files. Tests/Mutation/mutants.py makes the mutants, each
# one token-level edit of one line: a flipped comparison (`<` to `>=`, `>` to `<=`, `==` to `!=` and back), a
# negated if or guard condition or a removed `!`, `&&` to `||` and back, an integer literal one more or one
# less, `..<` to `...` and back, a removed single-line call, assignment or `+=`, a removed `return` in an if
# body, `true` to `false` and back, `min` to `max` and back, an element dropped from a one-line list literal.
# Comments, string literals, `import` lines, `#if` lines and branches a Linux build does not compile are left
# alone.
#
# Every candidate is collected, shuffled with --seed (default 1), and the first --max (default all) are tried.
# Each one is built (`swift build --build-tests`): a mutant that does not compile is skipped. Then the tests of
# its module run (`swift test --skip-build --filter`; Sources/MockServer -> MockServerTests and so on, see
# test_filter below; --filter F instead): failing tests kill it, and so do tests that run longer than --timeout
# (default 600 s); passing tests mean it survived. Before any mutant, the unmutated package must build and
# those tests pass. Each mutant's build and test output goes to .build/mutation/logs/NNN.log.
#
# The output: a progress line per mutant, each survivor as `file:line: mutation`, and last
# `mutation score: KILLED of COMPILED (P %)`, after a line saying, under --filter, that the score counts only the
# tests it ran. Exit status 0 once the run completes, whatever the score, unless
# --min-score P is given and the score is below P (then 1); 2 for bad arguments. --list prints the mutants
# that would be tried, and stops there.
#
# The mutated file is always put back: the original is copied to .build/mutation/pristine before each mutant
# and restored after it, and on exit, Ctrl-C or kill. A run killed outright (kill -9, a crash of the machine)
# leaves that copy behind; the next run restores it first and says so. Only one run at a time per tree.
set -euo pipefail
# All that follows is one block, which bash reads whole before running it: a checkout that changes this file
# during a long run would otherwise change what the run executes next.
{
usage="usage: Tests/Mutation/run.sh [--base REV] [--seed N] [--max N] [--filter F] [--timeout SECONDS] [--min-score P] [--list] [PATH...]"

fail() {
    echo "mutation: $1" >&2
    exit "${2:-2}"
}

base= seed=1 max= filter= limit=600 min_score= list_only=
paths=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --base | --seed | --max | --filter | --timeout | --min-score)
            [[ $# -ge 2 ]] || fail "$1 needs a value; $usage"
            case $1 in
                --base) base=$2 ;;
                --filter) filter=$2 ;;
                *)
                    [[ $2 =~ ^[0-9]+$ ]] || fail "$1 takes a whole number, not '$2'."
                    number=$((10#$2))
                    case $1 in
                        --seed) seed=$number ;;
                        --max) max=$number ;;
                        --timeout) limit=$number ;;
                        --min-score) min_score=$number ;;
                    esac
                    ;;
            esac
            shift 2
            continue
            ;;
        --list) list_only=1 ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
            exit 0
            ;;
        --) shift; paths+=("$@"); break ;;
        -*) fail "there is no option '$1'; $usage" ;;
        *) paths+=("$1") ;;
    esac
    shift
done
(( limit > 0 )) || fail "--timeout must be at least 1 second."
(( ${min_score:-0} <= 100 )) || fail "--min-score is a percentage, at most 100, not $min_score."
# Paths are resolved before the script moves to the repository's root, so they may be relative to any folder.
resolved=()
for path in "${paths[@]}"; do
    [[ -e $path ]] || fail "there is no file or folder '$path'."
    resolved+=("$(realpath "$path")")
done
if [[ -z $base && ${#paths[@]} -eq 0 ]]; then
    fail "name what to mutate: --base REV for the lines a diff changed, or the Swift files or folders; $usage"
fi
cd "$(dirname "$0")/../.."
helper=Tests/Mutation/mutants.py
if [[ -n $base ]] && ! git rev-parse --verify --quiet "$base^{commit}" > /dev/null; then
    fail "git knows no revision '$base'."
fi

state=.build/mutation
backup=$state/pristine # file: the original; mutant: what was written instead; path: where (present while planted)
logs=$state/logs
plan=$state/plan.json
mkdir -p "$backup"

# One run at a time: two would restore each other's files.
exec 9> "$state/lock"
flock -n 9 || fail "another mutation run is under way in this tree." 1

# Puts back the file a mutant is planted in, if one is; prints what it did when $1 is given.
restore() {
    [[ -f $backup/path ]] || return 0
    local target
    target=$(cat "$backup/path")
    cp "$backup/file" "$target"
    rm -f "$backup/path"
    [[ -z ${1:-} ]] || echo "mutation: $1 $target"
}

# A run killed outright left a mutant planted: put the original back, unless the file was edited since.
if [[ -f $backup/path ]]; then
    target=$(cat "$backup/path")
    if [[ -f $target ]] && cmp -s "$target" "$backup/file"; then
        rm -f "$backup/path"
    elif [[ -f $target && -f $backup/mutant ]] && cmp -s "$target" "$backup/mutant"; then
        restore "an earlier run was interrupted with a mutant planted; restored"
    else
        fail "$target is neither its copy in $backup/file nor the mutant an interrupted run planted (in $backup/mutant); it was edited since: compare them, then delete $backup/path." 1
    fi
fi

child=
cleanup() {
    local status=$?
    trap - EXIT INT TERM HUP
    if [[ -n $child ]]; then
        kill -INT "$child" 2> /dev/null || true # timeout passes it on; SwiftPM then stops its test process too
        wait "$child" 2> /dev/null || true
    fi
    if [[ -f $backup/path ]]; then
        restore "stopped; restored"
        echo "mutation: .build may hold a build of the mutant; the next build replaces it" >&2
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Runs a command with its output appended to the file $2, for at most $1 seconds (0: no limit). In the
# background, so that a signal is handled at once; on the way out, cleanup interrupts it.
run_bounded() {
    local seconds=$1 log=$2 status=0
    shift 2
    timeout -s INT --kill-after=30 "$seconds" "$@" >> "$log" 2>&1 9>&- &
    child=$!
    wait "$child" || status=$?
    child=
    [[ -z $(tail -c 1 "$log") ]] || echo >> "$log" # output cut off mid-line
    echo "== exit status $status$([[ $status -ne 124 ]] || echo ": timed out after $seconds s")" >> "$log"
    return "$status"
}

# The tests that judge a mutant of file $1: its module's test target.
test_filter() {
    if [[ -n $filter ]]; then
        echo "$filter"
        return
    fi
    case $1 in
        Sources/MockServer/* | Sources/MockServerWire/*) echo MockServerTests ;;
        Sources/ServiceKit/*) echo ServiceKitTests ;;
        Sources/recorder/*) echo recorderTests ;;
        Sources/ServiceReplayShared/*) echo 'MockServerTests|ServiceKitTests|ServicesReplayTests' ;;
        # The trait's own tests (driving it by hand, failures included) are in MockServerTests/Sessions.
        Sources/MockServerTesting/*) echo 'MockServerTests|ServicesReplayTests' ;;
        Sources/ServiceReplayTesting/* | Sources/ExampleServices/* | Sources/ServiceKitTesting/*)
            echo ServicesReplayTests ;;
        *) echo "" ;;
    esac
}

# Whether the test output in $1 shows that at least one XCTest or Swift Testing test ran.
tests_ran() {
    grep -Eq 'Executed [1-9][0-9]* tests?|Test run with [1-9][0-9]* tests?' "$1"
}

options=(--out "$plan" --seed "$seed")
[[ -z $max ]] || options+=(--max "$max")
[[ -z $base ]] || options+=(--base "$base")
counts=$(python3 "$helper" plan "${options[@]}" "${resolved[@]}")
read -r candidates selected <<< "$counts"
mapfile -t mutants < <(python3 "$helper" list "$plan")
echo "mutation: $candidates candidate mutants; trying $selected of them (seed $seed)"

if [[ -n $list_only ]]; then
    for row in "${mutants[@]}"; do
        IFS=$'\t' read -r file line description <<< "$row"
        echo "$file:$line: $description"
    done
    exit 0
fi

filters=()
for row in "${mutants[@]}"; do
    IFS=$'\t' read -r file _ _ <<< "$row"
    wanted=$(test_filter "$file")
    [[ -n $wanted ]] || fail "no test target is known for $file; name the tests with --filter."
    [[ " ${filters[*]} " == *" $wanted "* ]] || filters+=("$wanted")
done
if [[ $selected -eq 0 ]]; then
    echo "mutation: there is nothing to mutate there, so nothing compiled"
    echo "mutation score: 0 of 0 (n/a)"
    exit 0
fi

rm -rf "$logs"
mkdir -p "$logs"
echo "mutation: building the package without mutants"
if ! run_bounded 0 "$logs/unmutated-build.log" swift build --build-tests; then
    fail "the package does not build without mutants; see $logs/unmutated-build.log." 1
fi
for wanted in "${filters[@]}"; do
    # Named after the filter, cut to 100 characters with its checksum appended: a long --filter must still
    # make a file name the file system takes (255 bytes at most).
    name=$(echo "$wanted" | tr -c 'A-Za-z0-9\n' '_')
    if (( ${#name} > 100 )); then name="${name:0:100}-$(echo "$wanted" | cksum | cut -d' ' -f1)"; fi
    log=$logs/unmutated-tests-$name.log
    started=$SECONDS
    if ! run_bounded "$limit" "$log" swift test --skip-build --filter "$wanted"; then
        fail "the tests '$wanted' fail without any mutant, so they cannot judge one; see $log." 1
    fi
    tests_ran "$log" || fail "--filter '$wanted' selects no test; see $log." 1
    echo "mutation: the tests '$wanted' pass without mutants in $((SECONDS - started)) s"
done

killed=0 survived=0 skipped=0 timed_out=0
survivors=()
for ((number = 1; number <= selected; number++)); do
    IFS=$'\t' read -r file line description <<< "${mutants[number - 1]}"
    log=$logs/$(printf '%03d' "$number").log
    echo "mutant $number: $file:$line: $description" > "$log"
    started=$SECONDS

    # Plant it: the original first, then the mutant, then the record of where, which arms the restore.
    cp "$file" "$backup/file"
    python3 "$helper" write "$plan" "$number" "$backup/mutant"
    echo "$file" > "$backup/path.new"
    mv "$backup/path.new" "$backup/path"
    cp "$backup/mutant" "$file"

    echo "== swift build --build-tests" >> "$log"
    if ! run_bounded 0 "$log" swift build --build-tests; then
        outcome=skipped note="does not compile; "
        skipped=$((skipped + 1))
    else
        wanted=$(test_filter "$file")
        echo "== swift test --skip-build --filter '$wanted'" >> "$log"
        status=0 testing=$SECONDS
        run_bounded "$limit" "$log" swift test --skip-build --filter "$wanted" || status=$?
        if [[ $status -eq 0 ]]; then
            outcome=survived note=
            survived=$((survived + 1))
            survivors+=("$file:$line: $description")
        elif [[ $status -eq 124 ]] || [[ $status -eq 137 && $((SECONDS - testing)) -ge $limit ]]; then
            outcome=killed note="tests timed out after $limit s; "
            killed=$((killed + 1))
            timed_out=$((timed_out + 1))
        else
            outcome=killed note=
            killed=$((killed + 1))
        fi
    fi
    restore
    echo "[$number/$selected] $outcome $file:$line: $description (${note}$((SECONDS - started)) s)"
done

echo "mutation: rebuilding the package without mutants"
if ! run_bounded 0 "$logs/final-build.log" swift build --build-tests; then
    echo "mutation: the final build failed; see $logs/final-build.log" >&2
fi

compiled=$((killed + survived))
echo "mutation: $killed killed ($timed_out by a timeout), $survived survived, $skipped skipped because they do not compile; logs in $logs"
if [[ ${#survivors[@]} -gt 0 ]]; then
    echo "survivors:"
    printf '%s\n' "${survivors[@]}"
fi
if [[ $compiled -eq 0 ]]; then
    echo "mutation: no mutant compiled"
    echo "mutation score: 0 of 0 (n/a)"
    exit 0
fi
percent=$(((200 * killed + compiled) / (2 * compiled)))
status=0
if [[ -n $min_score ]] && ((100 * killed < min_score * compiled)); then
    echo "mutation: the score is below --min-score $min_score %" >&2
    status=1
fi
if [[ -n $filter ]]; then
    # A narrower filter leaves out tests that kill mutants: one suite of the control API caught 1 of 4 where its
    # target caught 3 of 4.
    echo "mutation: the score counts only the tests --filter '$filter' ran; a survivor is a gap only once the owning test target (no --filter) lets it live too"
fi
echo "mutation score: $killed of $compiled ($percent %)"
exit "$status"
}
