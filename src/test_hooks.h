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
#include <stdlib.h>
#include <unistd.h>

/* Wait GIT_ABBREV_TEST_PAUSE_MS milliseconds, once per *done flag. */
static inline void test_hook_pause(int *done)
{
	const char *pause = getenv("GIT_ABBREV_TEST_PAUSE_MS");

	if (pause && !*done) {
		*done = 1;
		usleep(1000u * (unsigned)atoi(pause));
	}
}
#else
#define test_hook_pause(done) ((void)(done))
#endif

#endif
