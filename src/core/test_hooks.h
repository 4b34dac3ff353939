/*
 * test_hooks.h - places where the test suite's own build of the tool
 * (tests/git-abbrev-hooks, compiled with -DABBREV_TEST_HOOKS) waits, so
 * that a test can make a race certain instead of likely.  In git-abbrev
 * itself they compile to nothing: the installed program reads no test
 * variable from the environment.
 *
 * Ownership: nothing is allocated; `*done` is the caller's flag.
 */
#ifndef ABBREV_TEST_HOOKS_H
#define ABBREV_TEST_HOOKS_H

#ifdef ABBREV_TEST_HOOKS
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * Wait as many milliseconds as the variable `name` says, once per *done
 * flag.  When GIT_ABBREV_TEST_PAUSED names a file, it is created as the
 * pause starts, so a test acts inside the pause however long the tool
 * took to get there (a sleep in the test would race a loaded machine).
 * When GIT_ABBREV_TEST_RESUME names a file, the pause ends as soon as that
 * file exists (looked for every 10 ms): the test creates it once it has
 * done what it paused the tool for, so the pause is a bound, not a wait.
 */
static inline void test_hook_wait(const char *name, int *done)
{
	const char *pause = getenv(name), *mark = getenv("GIT_ABBREV_TEST_PAUSED");
	const char *resume = getenv("GIT_ABBREV_TEST_RESUME");

	if (pause && !*done) {
		unsigned ms = (unsigned)atoi(pause);

		*done = 1;
		if (mark) {
			int fd = open(mark, O_WRONLY | O_CREAT, 0644);

			if (fd >= 0)
				close(fd);
		}
		if (!resume) {
			usleep(1000u * ms);
			return;
		}
		for (unsigned waited = 0; waited < ms && access(resume, F_OK) != 0; waited += 10)
			usleep(10000);
	}
}
#else
#define test_hook_wait(name, done) ((void)(name), (void)(done))
#endif

/*
 * GIT_ABBREV_TEST_PAUSE_MS: between listing an object directory's packs
 * and reading its loose objects (walk_pack.c).
 */
#define test_hook_pause(done) test_hook_wait("GIT_ABBREV_TEST_PAUSE_MS", done)
/*
 * GIT_ABBREV_TEST_LOOSE_PAUSE_MS: halfway through the loose objects, before
 * fan-out directory 80 (odb_loose.c).
 */
#define test_hook_loose_pause(done) test_hook_wait("GIT_ABBREV_TEST_LOOSE_PAUSE_MS", done)
/*
 * GIT_ABBREV_TEST_READ_PAUSE_MS: once objread has mapped the packs it reads
 * commits from, before it reads any (objread.c).
 */
#define test_hook_read_pause(done) test_hook_wait("GIT_ABBREV_TEST_READ_PAUSE_MS", done)
/*
 * GIT_ABBREV_TEST_CACHE_PAUSE_MS: once a pack's subject cache file is
 * mapped, before it is read (subject_cache.c).
 */
#define test_hook_cache_pause(done) test_hook_wait("GIT_ABBREV_TEST_CACHE_PAUSE_MS", done)

/* A number from the variable `name`, or `dflt` when it is not set (or not a test build). */
#ifdef ABBREV_TEST_HOOKS
static inline size_t test_hook_size(const char *name, size_t dflt)
{
	const char *v = getenv(name);

	return v ? (size_t)strtoull(v, NULL, 10) : dflt;
}
#else
#define test_hook_size(name, dflt) ((void)(name), (dflt))
#endif

/*
 * GIT_ABBREV_TEST_RANGE_KEEP: the bytes of messages the --range walk keeps
 * for the check, instead of `dflt` (cite_git2.c), so a small history also
 * takes the path of a large one: messages read again one by one.
 */
#define test_hook_range_keep(dflt) test_hook_size("GIT_ABBREV_TEST_RANGE_KEEP", dflt)
/*
 * GIT_ABBREV_TEST_SPLIT_MIN: from how many commits the subject index's
 * reading takes two threads, instead of `dflt` (cite_git2.c), so that a
 * small repository is read as a large one is.
 */
#define test_hook_split_min(dflt) test_hook_size("GIT_ABBREV_TEST_SPLIT_MIN", dflt)
/*
 * GIT_ABBREV_TEST_WALK_BUDGET_MS: the CPU milliseconds libgit2's ancestry
 * walks may take before every commit's parents are read for the graph,
 * instead of the estimate `dflt` (cite_git2.c): 0 reads them after the
 * first walk, so a small history takes that path.
 */
#define test_hook_walk_budget_ms(dflt) test_hook_size("GIT_ABBREV_TEST_WALK_BUDGET_MS", dflt)

/* GIT_ABBREV_TEST_TRACE set: say on stderr that a path was taken (msg NULL: nothing). */
#ifdef ABBREV_TEST_HOOKS
#include <stdio.h>
static inline void test_hook_trace(const char *msg)
{
	if (msg && getenv("GIT_ABBREV_TEST_TRACE"))
		fprintf(stderr, "git-abbrev: test: %s\n", msg);
}
#else
#define test_hook_trace(msg) ((void)(msg))
#endif

#endif
