#!/bin/sh
# t-layers.sh - src/ keeps its layers (docs/architecture.md): tests/layers.py
# passes on the tree, and fails, naming the file, on a copy of it where a
# core file includes a command-line header, where walk and verify include
# each other, where a core file includes libgit2, where a file stands
# outside the folders, and where two files call each other round.
. "$(dirname "$0")/setup.sh"

layers() { "$PYTHON3" "$tests_dir/layers.py" "$1" >"$tmp/layers.out" 2>&1; }

say "the tree keeps its layers"
checks=$((checks + 1))
layers "$srcdir/src" || fail "layers.py: $(cat "$tmp/layers.out")"

# a planted bad include in a copy of src/, one at a time
plant() { # DESCRIPTION FILE LINE
	rm -rf "$tmp/src" && cp -R "$srcdir/src" "$tmp/src"
	printf '%s\n' "$3" >>"$tmp/src/$2"
	checks=$((checks + 2))
	if layers "$tmp/src"; then
		fail "$1: layers.py passed"
	else
		grep -q "src/$2 includes" "$tmp/layers.out" || fail "$1: the file is not named: $(cat "$tmp/layers.out")"
	fi
}
say "an include against the layers is refused"
plant "core includes cmd" core/hexid.c '#include "cli.h"'
plant "odb includes walk" odb/mapguard.c '#include "walk.h"'
plant "walk includes verify" walk/walk_tags.c '#include "cite_parse.h"'
plant "verify includes walk" verify/range_walk.c '#include "walk_pack.h"'
plant "emit includes cmd" emit/fmt.c '#include "cmd.h"'
plant "core includes libgit2" core/stats.c '#include <git2.h>'

say "a file outside the folders is refused"
rm -rf "$tmp/src" && cp -R "$srcdir/src" "$tmp/src"
: >"$tmp/src/stray.c"
checks=$((checks + 1))
layers "$tmp/src" && fail "a file in src/ itself passed"

say "a circle of calls between two files is refused"
rm -rf "$tmp/src" && cp -R "$srcdir/src" "$tmp/src"
printf 'int plant_b(void);\nint plant_a(void)\n{\n\treturn plant_b();\n}\n' >"$tmp/src/core/plant_a.c"
printf 'int plant_a(void);\nint plant_b(void)\n{\n\treturn plant_a();\n}\n' >"$tmp/src/core/plant_b.c"
checks=$((checks + 1))
if layers "$tmp/src"; then fail "a circle of calls passed"
else grep -q "circle of calls: src/core/plant_a.c -> src/core/plant_b.c" "$tmp/layers.out" ||
	fail "the circle is not named: $(cat "$tmp/layers.out")"; fi

finish
