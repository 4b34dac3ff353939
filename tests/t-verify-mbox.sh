#!/bin/sh
# t-verify-mbox.sh - `git abbrev verify` on mail: a `git format-patch
# --stdout --thread --pretty=mboxrd` series of three patches with planted
# references (unknown, short, ambiguous) in their commit messages, one
# below the `---` line, one in a diff; as a mailer sends them (patch 2
# quoted-printable with a soft line break inside a reference and a UTF-8
# subject in RFC 2047, patch 3 base64); a line quoted as ">From" by
# mboxrd; a reply of the thread (multipart/alternative, a quoted line);
# later patches citing earlier ones of the series by the sender's IDs;
# mails in ISO-8859-1 and windows-1252 citing commits with UTF-8 subjects.
#
# The oracle for what a commit message is: git itself (`git mailsplit
# --mboxrd`, `git mailinfo`): each message's commit message, as git am
# would commit it, is checked alone as a plain file, and the findings of
# the mbox must be the same, message by message (named by the
# Message-IDs that grep reads from the file), on input lines that hold
# the reference (those of the base64 patch inside its message).  Every ID
# and subject comes from git, never from the tool.  The mailer and the
# comparisons are tests/mbox_check.py.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

repo=$tmp/planted
gen_repo "$repo" planted
planted() { # KIND INDEX -> the planted ID
	jget "$repo.json" "planted('$1')['ids'][$2]"
}
G() { git -C "$repo" "$@"; }
A=$(planted commit-commit 0)
A8=$(echo "$A" | cut -c1-8)
[ "$(G rev-parse --disambiguate="$A8" | wc -l)" -ge 2 ] || die "$A8 is not ambiguous"
M3=$(G rev-parse main~3)
M3_7=$(echo "$M3" | cut -c1-7)
S_M3=$(G log -1 --format=%s "$M3")
# unknown IDs, one per place: each must name nothing here
U1=0000000000a1 U2=0000000000a2 U3=0000000000a3 U4=0000000000a4
U5=0000000000a5 U6=0000000000a6 U7=0000000000a7 U8=0000000000a8
for u in $U1 $U2 $U3 $U4 $U5 $U6 $U7 $U8; do
	[ -z "$(G rev-parse --disambiguate=$u)" ] || die "$u names an object"
done

# ---- the sender's tree: three patches on top of the repository's main ------------
snd=$tmp/sender
git clone -q "$repo" "$snd"
S() { git -C "$snd" "$@"; }
echo "Fixes: $U4 (\"in the diff\")" >"$snd/one.txt"
S add one.txt
S commit -q -m "one: add a file" -m "Fixes: $U1 (\"no such subject\")
Fixes: $M3_7 (\"$S_M3\")
Fixes: $A8"
P1=$(S rev-parse HEAD)
P1s=$(S rev-parse --short=12 HEAD)
echo two >"$snd/two.txt"
S add two.txt
S commit -q -m "café: add two" -m "From commit $U2 on, mboxrd quotes this line.
Fixes: $P1s (\"one: add a file\")
This line is long, so long that the mailer has to break it with a soft line break, commit $U8 (\"cut\")."
P2s=$(S rev-parse --short=12 HEAD)
echo three >"$snd/three.txt"
S add three.txt
S commit -q -m "three: add three" -m "Fixes: $P2s (\"café: add two\")
Fixes: $M3_7 (\"$S_M3\")
Fixes: $U7 (\"no such subject either\")"
S format-patch --stdout --thread --pretty=mboxrd "$(G rev-parse HEAD)..HEAD" >"$tmp/fp.mbox"
[ "$(grep -c '^From [0-9a-f]\{40\} ' "$tmp/fp.mbox")" -eq 3 ] || die "format-patch made no 3 patches"

# as a mailer sends them: a note below ---, QP, base64, and a reply
"$PYTHON3" "$tests_dir/mbox_check.py" mailer "$tmp/fp.mbox" "$tmp/series.mbox" "$U3" "$U5" "$U6"
mbox=$tmp/series.mbox
grep -q '^>From commit' "$mbox" || die "mboxrd did not quote the From line"
grep -q '^Content-Transfer-Encoding: base64' "$mbox" || die "no base64 patch"
grep -q "=$" "$mbox" || die "no soft line break"

# ---- the oracle: git's own commit messages, each checked as a plain file -----------
mkdir "$tmp/split"
git mailsplit --mboxrd -o"$tmp/split" "$mbox" >/dev/null
n=0
for f in "$tmp"/split/*; do
	n=$((n + 1))
	git mailinfo -u "$tmp/msg" "$tmp/patch" <"$f" >"$tmp/info"
	{ sed -n 's/^Subject: //p' "$tmp/info"; echo; cat "$tmp/msg"; } >"$tmp/m$n.txt"
	# the mail's Message-ID, as the file has it
	sed -n 's/^Message-I[Dd]: *<\(.*\)>.*/\1/p' "$f" | head -1 >"$tmp/id$n"
done
[ "$n" -eq 4 ] || die "git mailsplit found $n messages, not 4"
for i in 1 2 3 4; do
	"$GIT_ABBREV" verify -C "$repo" --format=json "$tmp/m$i.txt" >"$tmp/o$i.json" || :
done
grep -q "$U2" "$tmp/m2.txt" && grep -q "$U8" "$tmp/m2.txt" || die "git mailinfo lost $U2 or $U8"

expect_exit 1 "$GIT_ABBREV" verify -C "$repo" --format=json "$mbox"
cp "$out" "$tmp/mbox.json"
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/mbox_check.py" series "$tmp" "$mbox" "$P1s" "$P2s" "$U3 $U4 $U5" ||
	fail "findings of the mbox against git mailinfo's messages"
# the UTF-8 subject of patch 2 decoded, and its findings named by it
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/mbox_check.py" subject "$tmp/mbox.json" "$(cat "$tmp/id2")" ||
	fail "patch 2's subject (RFC 2047) not decoded"

# ---- CRLF mail, a folded subject, in-body headers, a body line "From ..." --------
# (plain mbox: that line is no separator, as git mailsplit sees it)
printf '%s\n' \
	"From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001" \
	"Message-Id: <crlf.1@example.com>" "From: A U Thor <author@example.com>" \
	"Subject: [PATCH v2 1/2] crlf: the mail's" " subject, folded" "" \
	"From: Another Author <another@example.com>" \
	"Subject: [PATCH] in-body: the commit's subject" "Date: Mon, 1 Jan 2024 00:00:00 +0000" "" \
	"Fixes: $U1 (\"no such subject\")" "" \
	"From $U2 on, a line that is no separator:" "Fixes: $U2 (\"after a From line\")" \
	"---" "diff --git a/x b/x" "+Fixes: $U4 (\"in the diff\")" "" \
	"From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001" \
	"Message-Id: <crlf.2@example.com>" "Subject: [PATCH v2 2/2] crlf: two" "" \
	"Fixes: $M3_7 (\"$S_M3\")" | sed 's/$/\r/' >"$tmp/crlf.mbox"
rm -rf "$tmp/split2" && mkdir "$tmp/split2"
git mailsplit -o"$tmp/split2" "$tmp/crlf.mbox" >/dev/null
[ "$(ls "$tmp/split2" | wc -l)" -eq 2 ] || die "git mailsplit: not 2 messages in crlf.mbox"
for i in 1 2; do
	git mailinfo -u "$tmp/msg" "$tmp/patch" <"$tmp/split2/000$i" >"$tmp/info"
	{ sed -n 's/^Subject: //p' "$tmp/info"; echo; cat "$tmp/msg"; } >"$tmp/c$i.txt"
	"$GIT_ABBREV" verify -C "$repo" --format=json "$tmp/c$i.txt" >"$tmp/c$i.json" || :
done
grep -qx "in-body: the commit's subject" "$tmp/c1.txt" || die "git mailinfo: no in-body subject"
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" --format=json "$tmp/crlf.mbox"
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/mbox_check.py" crlf "$out" "$tmp/c1.json" "$tmp/c2.json" ||
	fail "crlf.mbox: not git mailinfo's messages"

# ---- text and checkpatch name the message ---------------------------------------------
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" "$mbox"
checks=$((checks + 1))
id1=$(cat "$tmp/id1")
l1=$(grep -n "^Fixes: $U1 " "$mbox" | cut -d: -f1)
grep -A3 "^$mbox:$l1: error: $U1 " "$out" |
	grep -qxF "    message: <$id1> \"[PATCH 1/3] one: add a file\"" ||
	{ fail "text: the message of $U1 not named"; show "$out"; }
checks=$((checks + 1))
grep -q "note: $P1s is patch \"\[PATCH 1/3\] one: add a file\" earlier in this series" "$out" ||
	{ fail "text: no note on patch 2 citing patch 1"; show "$out"; }
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" --format=checkpatch "$mbox"
checks=$((checks + 1))
grep -A1 '^-----*$' "$out" | grep -qxF "<$id1> \"[PATCH 1/3] one: add a file\"" &&
	grep -qF "#$l1: FILE: $mbox:$l1:" "$out" ||
	{ fail "checkpatch: the message or its line not named"; show "$out"; }
# checkpatch counts the file's lines, as it would
checks=$((checks + 1))
grep -q "lines checked" "$out" &&
	[ "$(sed -n 's/.* \([0-9]*\) lines checked$/\1/p' "$out")" -eq "$(wc -l <"$mbox")" ] ||
	fail "checkpatch: the lines checked are not the file's"

# ---- one message alone (a Maildir file): named by its Message-ID -------------------
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" --format=json "$tmp/split/0001"
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/mbox_check.py" alone "$out" "$id1" "$U1" ||
	fail "one message: not named by its Message-ID"

# ---- --fix: the input's own bytes rewritten, encoded bodies left as they are -------
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" --fix "$mbox"
checks=$((checks + 1))
M3s=$(G rev-parse --short=12 "$M3")
[ "$(wc -l <"$out")" -eq "$(wc -l <"$mbox")" ] || fail "--fix: the number of lines changed"
# patch 1's short ID mended; nothing else of the file differs
diff "$mbox" "$out" | grep '^[<>]' >"$tmp/fixdiff" || :
printf '< Fixes: %s ("%s")\n> Fixes: %s ("%s")\n' "$M3_7" "$S_M3" "$M3s" "$S_M3" |
	cmp -s - "$tmp/fixdiff" || { fail "--fix: not only patch 1's short ID rewritten"; show "$tmp/fixdiff"; }

# ---- mail in ISO-8859-1 and windows-1252: subjects matched as UTF-8 ---------------
# commits whose subjects have chars past ASCII (in UTF-8, as git stores them),
# cited by mails whose bodies iconv(1) wrote in the charset they declare
G commit -q --allow-empty -m "café: a naïve change"
L1=$(G rev-parse --short=12 HEAD)
G commit -q --allow-empty -m "quotes: “smart” ones cost 5 €"
W1=$(G rev-parse --short=12 HEAD)
S_L1=$(G log -1 --format=%s "$L1")
S_W1=$(G log -1 --format=%s "$W1")
mail() { # CHARSET DECLARED ID SUBJECT -> a one-message mail on stdout
	printf 'From: a@example.com\nSubject: [PATCH] charset: %s\nMessage-ID: <%s@example.com>\n' "$1" "$1"
	printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=%s\n' "$2"
	printf 'Content-Transfer-Encoding: 8bit\n\nFixes: %s ("%s")\n' "$3" "$4" | iconv -f UTF-8 -t "$1"
}
mail ISO-8859-1 ISO-8859-1 "$L1" "$S_L1" >"$tmp/latin1.eml"
mail WINDOWS-1252 windows-1252 "$W1" "$S_W1" >"$tmp/cp1252.eml"
# the oracle: the bytes are not UTF-8 (iconv refuses them), and are the commit's subject in UTF-8 once converted
for f in latin1:ISO-8859-1 cp1252:WINDOWS-1252; do
	iconv -f UTF-8 -t UTF-8 "$tmp/${f%%:*}.eml" >/dev/null 2>&1 && die "${f%%:*}.eml is UTF-8"
done
iconv -f ISO-8859-1 -t UTF-8 "$tmp/latin1.eml" | grep -qF "(\"$S_L1\")" || die "latin1.eml lacks the subject"
iconv -f WINDOWS-1252 -t UTF-8 "$tmp/cp1252.eml" | grep -qF "(\"$S_W1\")" || die "cp1252.eml lacks the subject"
say "charsets: ISO-8859-1 and windows-1252 bodies match the UTF-8 subjects"
for f in latin1 cp1252; do
	expect_exit 0 "$GIT_ABBREV" verify -C "$repo" "$tmp/$f.eml"
	checks=$((checks + 1))
	# no finding: only the count, the one Fixes: line of the one mail
	verify_summary 1 1 0 0 | cmp -s - "$out" || { fail "$f: findings on a right reference"; show "$out"; }
done
# the same bytes said to be UTF-8: the subject is not the commit's
sed 's/charset=ISO-8859-1/charset=utf-8/' "$tmp/latin1.eml" >"$tmp/latin1-as-utf8.eml"
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" "$tmp/latin1-as-utf8.eml"
checks=$((checks + 1))
grep -q "$L1" "$out" || { fail "latin-1 bytes said to be UTF-8: no finding on $L1"; show "$out"; }
# a wrong subject in ISO-8859-1 is still found
mail ISO-8859-1 ISO-8859-1 "$L1" "café: another change" >"$tmp/latin1-wrong.eml"
expect_exit 1 "$GIT_ABBREV" verify -C "$repo" "$tmp/latin1-wrong.eml"

finish
