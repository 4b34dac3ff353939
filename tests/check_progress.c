/*
 * check_progress.c - the progress meter as git shows it: nothing for a
 * quick phase (the delay), nothing for an empty one, and each redraw
 * padded over the rest of a longer line.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_suites.h"
#include "progress.h"

static char *buf;
static size_t len;
static FILE *out;
static progress *p;

/* A meter on an in-memory stream, with GIT_PROGRESS_DELAY = delay (NULL: unset). */
static void open_meter(const char *delay)
{
	if (delay)
		setenv("GIT_PROGRESS_DELAY", delay, 1);
	else
		unsetenv("GIT_PROGRESS_DELAY");
	out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	p = progress_new(out, 1);
	ck_assert_ptr_nonnull(p);
}

static const char *close_meter(void)
{
	progress_free(p);
	fclose(out);
	return buf;
}

static void teardown(void)
{
	free(buf);
	buf = NULL;
	unsetenv("GIT_PROGRESS_DELAY");
}

/* Enough updates for the meter to look at the clock once more. */
static void tick(size_t done)
{
	for (int i = 0; i < 4096; i++)
		progress_update(p, done);
}

START_TEST(test_quick_phase_shows_nothing)
{
	open_meter(NULL); /* git's 2 s */
	progress_start(p, "walking", 100000);
	for (size_t i = 1; i <= 100000; i++)
		progress_update(p, i);
	progress_stop(p);
	ck_assert_str_eq(close_meter(), "");
}
END_TEST

START_TEST(test_shown_after_the_delay)
{
	open_meter("0");
	progress_start(p, "walking", 0);
	tick(4096);
	progress_stop(p);
	close_meter();
	ck_assert_msg(!strncmp(buf, "\rwalking: 4096, ", 16), "got '%s'", buf);
	ck_assert_msg(strstr(buf, ", done.\n") && buf[strlen(buf) - 1] == '\n', "got '%s'", buf);
}
END_TEST

START_TEST(test_empty_phase)
{
	open_meter("0");
	progress_start(p, "reading loose objects", 0);
	progress_stop(p);
	/* one that drew "0" before it ended with nothing: wiped */
	progress_start(p, "reading loose objects", 0);
	tick(0);
	ck_assert_uint_gt(ftell(out), 0);
	progress_stop(p);
	close_meter();
	ck_assert_ptr_null(strstr(buf, "done"));
	ck_assert_int_eq(buf[strlen(buf) - 1], '\r');
	ck_assert_msg(strspn(strrchr(buf, ':'), ": 0,k/s") > 0, "got '%s'", buf);
}
END_TEST

START_TEST(test_redraw_pads_over_a_longer_line)
{
	struct timespec pause = { 0, 150 * 1000 * 1000 };
	char *first, *second;

	open_meter("0");
	progress_start(p, "p", 0);
	tick(123456789);
	nanosleep(&pause, NULL);
	tick(5);
	close_meter();
	first = strchr(buf, '\r');
	ck_assert_ptr_nonnull(first);
	second = strchr(first + 1, '\r');
	ck_assert_ptr_nonnull(second);
	ck_assert_msg(strlen(second) >= (size_t)(second - first), "'%s' does not cover '%.*s'",
		      second + 1, (int)(second - first - 1), first + 1);
	ck_assert_ptr_nonnull(strstr(second, "p: 5, "));
}
END_TEST

Suite *make_progress_suite(void)
{
	Suite *s = suite_create("progress");
	TCase *core = tcase_create("core");

	tcase_add_checked_fixture(core, NULL, teardown);
	tcase_add_test(core, test_quick_phase_shows_nothing);
	tcase_add_test(core, test_shown_after_the_delay);
	tcase_add_test(core, test_empty_phase);
	tcase_add_test(core, test_redraw_pads_over_a_longer_line);
	suite_add_tcase(s, core);
	return s;
}
