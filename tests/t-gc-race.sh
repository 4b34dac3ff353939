#!/bin/sh
# t-gc-race.sh - walks taken while git prunes and gcs the repository:
# every walk that exits 0 must give one state the repository was in,
# the state before, the state after, or one the prune passed through
# (the objects it removed so far gone, every other one there), never a
# torn one (loose objects pruned before their fan-out directory was read
# counted gone, others pruned after it was read counted there); a walk
# that cannot get one state must say so (exit 3, "kept changing ... try
# again").
#
# Each round puts back U unreachable loose objects spread over the
# fan-out directories (while nothing runs: the state "before", N + U
# objects), then runs `git prune --expire=now` or `git gc --prune=now`
# in the background (the state "after": N), the last round held up
# now and then, and walks until it is done, in turn tests/walk_dump,
# whose object lists tests/gc_race.py checks against the order in which
# inotify saw the loose objects go, and git-abbrev's report, whose count
# must lie between the two states.  A count between them is right when
# the prune was held up for longer than the walker's quiet rule (a loaded
# machine, the sanitizer pass): only the object lists tell it from a
# torn one, which a walker without its re-check gives here.
. "$(dirname "$0")/setup.sh"

if [ -z "${WALK_DUMP:-}" ]; then
	for c in "$PWD/tests/walk_dump" "$PWD/../tests/walk_dump"; do
		if [ -x "$c" ]; then WALK_DUMP=$c; break; fi
	done
fi
[ -x "${WALK_DUMP:-}" ] || die "no tests/walk_dump: run make check (or set WALK_DUMP)"

R=$tmp/repo
gen_repo "$R" planted
git -C "$R" reflog expire --expire=now --all
git -C "$R" gc -q --prune=now
"$WALK_DUMP" "$R/.git/objects" >"$tmp/after.ids" || die "walk_dump failed"
after=$(wc -l <"$tmp/after.ids" | tr -d ' ')
# the garbage: U unreachable blobs, kept aside as loose files
mkdir "$tmp/files"
i=0
while [ "$i" -lt 3000 ]; do
	echo "garbage $i" >"$tmp/files/$i"
	i=$((i + 1))
done
(cd "$tmp/files" && ls) | sed "s|^|$tmp/files/|" | git -C "$R" hash-object -w --stdin-paths >/dev/null
"$WALK_DUMP" "$R/.git/objects" >"$tmp/before.ids" || die "walk_dump failed"
before=$(wc -l <"$tmp/before.ids" | tr -d ' ')
mkdir "$tmp/garbage"
mv "$R"/.git/objects/?? "$tmp/garbage/"
u=$(find "$tmp/garbage" -type f | wc -l | tr -d ' ')
[ "$before" -eq $((after + u)) ] || die "before: $before objects, not $after + $u"
say "before: $before objects, after: $after"

# First, one race made certain: a walk held up halfway through the loose
# objects (after fan-out directory 7f) while a prune runs to its end
# must start again and give the state after, never the first half's
# garbage from before the prune and the second half's from after it
# (a walker without its re-check gives about after + U/2).
hooks=${GIT_ABBREV_HOOKS:-$(dirname "$GIT_ABBREV")/../tests/git-abbrev-hooks}
[ -x "$hooks" ] || die "no $hooks"
cp -Rl "$tmp/garbage/"?? "$R/.git/objects/"
touch -t 200109090146 "$R/.git/objects" "$R/.git/objects/"??
# (the walk says it is paused: $tmp/paused; the prune done, $tmp/resume
# ends the pause, 10 s at most)
GIT_ABBREV_TEST_PAUSED=$tmp/paused GIT_ABBREV_TEST_RESUME=$tmp/resume \
	GIT_ABBREV_TEST_LOOSE_PAUSE_MS=10000 "$hooks" --format=json "$R" >"$tmp/out" 2>"$tmp/err" &
walk=$!
wait_paused "$walk" "$tmp/paused" "the walk"
git -C "$R" prune --expire=now
: >"$tmp/resume"
wait "$walk" && st=0 || st=$?
checks=$((checks + 1))
if [ "$st" -eq 0 ]; then
	got=$(jget "$tmp/out" 'd["objects"]')
	[ "$got" = "$after" ] ||
		fail "a walk held up while a prune ran: $got objects, not $after (the state after)"
elif [ "$st" -ne 3 ] || ! grep -q "kept changing.*try again" "$tmp/err"; then
	fail "a walk held up while a prune ran: exit $st: $(cat "$tmp/err")"
fi

# Run a prune or gc ($1: prune or gc) in a process group of its own;
# with $2 = held, held up as on a loaded machine: stopped for longer
# than the walker's quiet rule after every 50 ms of work, so that walks
# can finish while it is half done (states between before and after).
command -v setsid >/dev/null 2>&1 || skip "no setsid"
run_pruner() {
	if [ "$1" = gc ]; then
		setsid git -C "$R" gc -q --prune=now &
	else
		setsid git -C "$R" prune --expire=now &
	fi
	pruner=$!
	[ "$2" = held ] || return 0
	(while kill -0 "$pruner" 2>/dev/null; do
		sleep 0.05
		kill -STOP -"$pruner" 2>/dev/null || break
		sleep 0.8
		kill -CONT -"$pruner" 2>/dev/null || break
	done) &
}

walks=0 reports=0 refused=0 between=0 rounds=0
while [ "$rounds" -lt 6 ]; do
	rounds=$((rounds + 1))
	cp -Rl "$tmp/garbage/"?? "$R/.git/objects/"
	# dated back, as if left alone for long: the walks need not wait for
	# the copy to settle, only for the prune
	touch -t 200109090146 "$R/.git/objects" "$R/.git/objects/"??
	rm -f "$tmp/ready"
	"$PYTHON3" "$tests_dir/gc_race.py" watch "$R/.git/objects" "$tmp/removed" >"$tmp/ready" &
	watcher=$!
	n=0
	until grep -q ready "$tmp/ready" 2>/dev/null; do
		if ! kill -0 "$watcher" 2>/dev/null; then
			wait "$watcher" && st=0 || st=$?
			[ "$st" -eq 77 ] && skip "no inotify to watch the prune with"
			die "gc_race.py watch failed (exit $st)"
		fi
		n=$((n + 1))
		[ "$n" -lt 400 ] || die "gc_race.py watch never got ready"
		sleep 0.05
	done
	held=free
	[ "$rounds" -le 5 ] || held=held
	if [ $((rounds % 2)) -eq 0 ]; then
		run_pruner gc $held
	else
		run_pruner prune $held
	fi
	first=$((walks + 1))
	k=0
	while kill -0 "$pruner" 2>/dev/null; do
		k=$((k + 1))
		if [ $((k % 2)) -eq 1 ]; then
			walks=$((walks + 1))
			"$WALK_DUMP" "$R/.git/objects" >"$tmp/walk.$walks" 2>"$tmp/err" && st=0 || st=$?
			out=$tmp/walk.$walks
		else
			reports=$((reports + 1))
			"$GIT_ABBREV" --format=json "$R" >"$tmp/out" 2>"$tmp/err" && st=0 || st=$?
			out=$tmp/out
		fi
		checks=$((checks + 1))
		if [ "$st" -ne 0 ]; then
			if [ "$st" -ne 3 ] || ! one_line "$tmp/err" || [ -s "$out" ] ||
			   ! grep -q "kept changing.*try again" "$tmp/err"; then
				fail "round $rounds: exit $st: $(cat "$tmp/err")"
			fi
			refused=$((refused + 1))
			rm -f "$out"
		elif [ "$out" = "$tmp/out" ]; then
			got=$(jget "$out" 'd["objects"]')
			[ "$got" -ge "$after" ] && [ "$got" -le "$before" ] ||
				fail "round $rounds: report of $got objects, neither $before (before) nor $after (after) nor between"
		fi
	done
	wait "$pruner" || die "git prune/gc failed"
	kill "$watcher"
	wait || : # the watcher, and the loop that held the prune up
	# every walk of this round that exited 0: one state of the repository
	# (one gc_race.py for them all, a line for each)
	set --
	i=$first
	while [ "$i" -le "$walks" ]; do
		[ -f "$tmp/walk.$i" ] && set -- "$@" "$tmp/walk.$i"
		i=$((i + 1))
	done
	[ "$#" -eq 0 ] && continue
	"$PYTHON3" "$tests_dir/gc_race.py" check "$tmp/before.ids" "$tmp/after.ids" \
		"$tmp/removed" "$@" >"$tmp/verdicts" 2>&1 || :
	checks=$((checks + 1))
	[ "$(grep -c ' ok \| bad ' "$tmp/verdicts")" -eq "$#" ] ||
		{ fail "round $rounds: gc_race.py check gave no verdict for every walk"; show "$tmp/verdicts"; }
	while read -r f verdict; do
		checks=$((checks + 1))
		case $verdict in
		"ok between"*) between=$((between + 1)) ;;
		ok*) ;;
		*) fail "round $rounds: walk ${f##*.} gave no state of the repository: ${verdict#bad }" ;;
		esac
	done <"$tmp/verdicts"
done
say "$rounds rounds of prune/gc: $walks walks and $reports reports, $refused refused as changing, $between walks of a state between before and after"
checks=$((checks + 1))
[ "$walks" -ge 3 ] || fail "only $walks walks: they did not overlap the prunes"
finish
