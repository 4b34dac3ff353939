#!/bin/sh
# build.sh - everything a fresh Debian 12 machine needs to build git-abbrev:
# install the missing Debian packages (as root), bootstrap the autotools
# files, configure once, and build.  Extra arguments go to ./configure
# (they force a reconfigure), e.g. ./build.sh --enable-werror.
set -eu
cd "$(dirname "$0")"

# bash-completion and tmux: tests/t-completion.sh types into a real
# interactive bash (tmux) with completion loaded as an installed one is;
# munge, slurmctld, slurmd and slurm-client: tests/t-slurm.sh runs
# contrib/slurm's array job on a one-node cluster (12 s to install)
PACKAGES="build-essential autoconf automake pkg-config git python3
libgit2-dev libjudy-dev libjansson-dev zlib1g-dev libzstd-dev libdeflate-dev nettle-dev check
bash-completion tmux parallel munge slurmctld slurmd slurm-client"

missing=
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
		echo "build.sh: please install:$missing" >&2
		exit 1
	fi
	echo "build.sh: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
fi

[ -x configure ] || autoreconf -fi
if [ ! -f Makefile ] || [ $# -gt 0 ]; then
	./configure "$@"
fi
make -j"$(nproc)"
