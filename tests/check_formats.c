/*
 * check_formats.c - unit tests of the output formats: the pure helpers
 * of svg.h (linear and log scales, decades, ticks, labels, XML escaping,
 * line wrapping) and csv.h (RFC 4180 quoting), the format table of emit.c
 * (which command prints what, and the names in messages), --format and
 * --type parsing, and the classic emitter on hand-made IDs, captured in
 * memory and compared byte for byte with git-unique-abbrev's layout.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cli.h"
#include "csv.h"
#include "emit.h"
#include "emit_parts.h"
#include "fmt.h"
#include "history.h"
#include "projection.h"
#include "idset.h"
#include "stats.h"
#include "svg.h"

/* Output of one call captured in memory: the buffer stays until the next capture. */
static char *mem;
static size_t memlen;

static FILE *capture(void)
{
	FILE *f;

	free(mem);
	mem = NULL;
	f = open_memstream(&mem, &memlen);
	ck_assert_ptr_nonnull(f);
	return f;
}

static const char *captured(FILE *f)
{
	ck_assert_int_eq(fclose(f), 0);
	return mem;
}

static void teardown(void)
{
	free(mem);
	mem = NULL;
}

#define assert_near(a, b) ck_assert_msg(fabs((double)(a) - (double)(b)) < 1e-9, "%.12g != %.12g", \
					 (double)(a), (double)(b))

START_TEST(test_scale_linear)
{
	svg_scale s;

	ck_assert_int_eq(svg_scale_init(&s, 4, 12, 100, 900, 0), 0);
	assert_near(svg_scale_map(&s, 4), 100);
	assert_near(svg_scale_map(&s, 12), 900);
	assert_near(svg_scale_map(&s, 8), 500);
	assert_near(svg_scale_map(&s, 13), 1000); /* extrapolates */
	/* a y axis runs upwards: p1 < p0 */
	ck_assert_int_eq(svg_scale_init(&s, 0, 1, 490, 90, 0), 0);
	assert_near(svg_scale_map(&s, 0.5), 290);
	/* an empty range is refused and maps everything to p0 */
	ck_assert_int_eq(svg_scale_init(&s, 3, 3, 10, 20, 0), -1);
	assert_near(svg_scale_map(&s, 5), 10);
}
END_TEST

START_TEST(test_scale_log)
{
	svg_scale s;

	/* 1 .. 1000 over 400 .. 100 px: 100 px a decade, upwards */
	ck_assert_int_eq(svg_scale_init(&s, 1, 1000, 400, 100, 1), 0);
	assert_near(svg_scale_map(&s, 1), 400);
	assert_near(svg_scale_map(&s, 10), 300);
	assert_near(svg_scale_map(&s, 100), 200);
	assert_near(svg_scale_map(&s, 1000), 100);
	assert_near(svg_scale_map(&s, 10000), 0);
	assert_near(svg_scale_map(&s, 0.1), 500);
	/* sqrt(10) is half a decade */
	assert_near(svg_scale_map(&s, sqrt(10)), 350);
	/* 0 and negative counts have no place on a log axis */
	ck_assert(isnan(svg_scale_map(&s, 0)));
	ck_assert(isnan(svg_scale_map(&s, -5)));
	/* a log scale needs a positive range */
	ck_assert_int_eq(svg_scale_init(&s, 0, 10, 0, 1, 1), -1);
	ck_assert_int_eq(svg_scale_init(&s, -1, 10, 0, 1, 1), -1);
}
END_TEST

START_TEST(test_log_range)
{
	double lo, hi;

	ck_assert_int_eq(svg_log_range(&lo, &hi, 0.05, 65536), 0);
	assert_near(lo, 0.01);
	assert_near(hi, 1e5);
	/* exact powers of ten stay where they are */
	ck_assert_int_eq(svg_log_range(&lo, &hi, 0.001, 1000), 0);
	assert_near(lo, 0.001);
	assert_near(hi, 1000);
	/* at least one decade */
	ck_assert_int_eq(svg_log_range(&lo, &hi, 1000, 1000), 0);
	assert_near(lo, 1000);
	assert_near(hi, 10000);
	ck_assert_int_eq(svg_log_range(&lo, &hi, 3, 3), 0);
	assert_near(lo, 1);
	assert_near(hi, 10);
	/* swapped bounds are put in order */
	ck_assert_int_eq(svg_log_range(&lo, &hi, 2e6, 7), 0);
	assert_near(lo, 1);
	assert_near(hi, 1e7);
	ck_assert_int_eq(svg_log_range(&lo, &hi, 0, 10), -1);
	ck_assert_int_eq(svg_log_range(&lo, &hi, 1, -10), -1);
}
END_TEST

START_TEST(test_ticks)
{
	double t[64];
	svg_scale s;
	size_t n;

	/* lengths 4 .. 11 with a margin: whole numbers only */
	svg_scale_init(&s, 3.6, 11.4, 0, 800, 0);
	s.whole = 1;
	n = svg_ticks(t, 32, &s);
	ck_assert_uint_eq(n, 8);
	for (size_t i = 0; i < n; i++)
		assert_near(t[i], 4.0 + (double)i);
	/* without `whole` the same range gets half steps */
	s.whole = 0;
	n = svg_ticks(t, 32, &s);
	ck_assert_uint_eq(n, 15);
	assert_near(t[0], 4);
	assert_near(t[1], 4.5);
	/* 0 .. 1 in tenths, 0 exactly 0 */
	svg_scale_init(&s, 0, 1, 0, 1, 0);
	n = svg_ticks(t, 11, &s);
	ck_assert_uint_eq(n, 11);
	ck_assert(t[0] == 0);
	assert_near(t[5], 0.5);
	assert_near(t[10], 1);
	/* 4 .. 40 in at most 10 ticks: a step of 36/9 = 4 rounds up to 5 */
	svg_scale_init(&s, 4, 40, 0, 1, 0);
	n = svg_ticks(t, 10, &s);
	ck_assert_uint_eq(n, 8);
	assert_near(t[0], 5);
	assert_near(t[7], 40);
	/* at most 20: a step of 2 */
	n = svg_ticks(t, 20, &s);
	ck_assert_uint_eq(n, 19);
	assert_near(t[0], 4);
	assert_near(t[18], 40);
	/* log: one tick a decade, inclusive */
	svg_scale_init(&s, 0.01, 1e6, 0, 1, 1);
	n = svg_ticks(t, 16, &s);
	ck_assert_uint_eq(n, 9);
	assert_near(t[0], 0.01);
	assert_near(t[2], 1);
	assert_near(t[8], 1e6);
	/* too many decades: every second one */
	n = svg_ticks(t, 5, &s);
	ck_assert_uint_eq(n, 5);
	assert_near(t[1], 1);
	assert_near(t[4], 1e6);
	/* fewer than 2 allowed, or an empty scale: none */
	ck_assert_uint_eq(svg_ticks(t, 1, &s), 0);
	svg_scale_init(&s, 1, 1, 0, 1, 0);
	ck_assert_uint_eq(svg_ticks(t, 10, &s), 0);
}
END_TEST

static const struct {
	double v;
	const char *s;
} numbers[] = {
	{ 0, "0" }, { 0.001, "0.001" }, { 0.01, "0.01" }, { 0.5, "0.5" }, { 7, "7" },
	{ 10, "10" }, { 1000, "1,000" }, { 65536, "65,536" }, { 1e6, "1,000,000" },
	{ 13021585, "13,021,585" }, { 999999999, "999,999,999" },
	/* past 10^9 and below 10^-4 as people read them, not C's 1e+09 */
	{ 1e9, "10\u2079" }, { 2.5e9, "2.5\u00d710\u2079" }, { 1e12, "10\u00b9\u00b2" },
	{ -3e12, "-3\u00d710\u00b9\u00b2" }, { 9.9996e9, "10\u00b9\u2070" },
	{ 1e-5, "10\u207b\u2075" }, { 1e-13, "10\u207b\u00b9\u00b3" }, { 0.0001, "0.0001" },
	{ -2500, "-2,500" }, { 2.5, "2.5" },
};

START_TEST(test_fmt_number)
{
	char buf[32];

	svg_fmt_number(buf, sizeof(buf), numbers[_i].v);
	ck_assert_str_eq(buf, numbers[_i].s);
}
END_TEST

START_TEST(test_fmt_number_small_buffer)
{
	char buf[4];

	svg_fmt_number(buf, sizeof(buf), 1234567);
	ck_assert_uint_lt(strlen(buf), sizeof(buf));
	/* "10⁹" does not fit: cut before the superscript, not inside it */
	svg_fmt_number(buf, sizeof(buf), 1e9);
	ck_assert_str_eq(buf, "10");
}
END_TEST

static const struct {
	const char *in, *out;
} xml[] = {
	{ "plain", "plain" },
	{ "a&b<c>d\"e'f", "a&amp;b&lt;c&gt;d&quot;e&apos;f" },
	{ "tab\there\nnl", "tab\there\nnl" },
	{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
	/*
	 * Bytes that are not UTF-8 are Latin-1 characters (utf8.h): Latin-1,
	 * a control char, a lone byte 0x80 (a C1 control once read as
	 * Latin-1, which XML cannot hold), an overlong '/'
	 */
	{ "caf\xe9!", "caf\xc3\xa9!" },
	{ "a\x01z", "a\xef\xbf\xbdz" },
	{ "\x80", "\xef\xbf\xbd" },
	{ "\xc0\xaf", "\xc3\x80\xc2\xaf" },
	/* a UTF-16 surrogate encoded in UTF-8 is not a character: three bytes */
	{ "\xed\xa0\x80", "\xc3\xad\xc2\xa0\xef\xbf\xbd" },
	/* cut short at the end */
	{ "x\xe2\x82", "x\xc3\xa2\xef\xbf\xbd" },
	/* a C1 control given as UTF-8 */
	{ "a\xc2\x85z", "a\xef\xbf\xbdz" },
};

START_TEST(test_svg_text)
{
	FILE *f = capture();

	svg_text(f, xml[_i].in);
	ck_assert_str_eq(captured(f), xml[_i].out);
}
END_TEST

START_TEST(test_svg_wrapped)
{
	FILE *f = capture();
	double y = svg_wrapped(f, 10, 100, 15, 12, "note", "one two three four <&> fivesixseveneight");

	/* lines of at most 12 chars, broken at spaces; a longer word stays whole */
	ck_assert_str_eq(captured(f),
		"<text class=\"note\" x=\"10.0\" y=\"100.0\">one two</text>\n"
		"<text class=\"note\" x=\"10.0\" y=\"115.0\">three four</text>\n"
		"<text class=\"note\" x=\"10.0\" y=\"130.0\">&lt;&amp;&gt;</text>\n"
		"<text class=\"note\" x=\"10.0\" y=\"145.0\">fivesixseveneight</text>\n");
	assert_near(y, 160);
}
END_TEST

static const struct {
	const char *in, *out;
} csv[] = {
	{ "plain", "plain" },
	{ "", "" },
	{ "/tmp/repo", "/tmp/repo" },
	{ "a,b", "\"a,b\"" },
	{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
	{ "\"", "\"\"\"\"" },
	{ "two\nlines", "\"two\nlines\"" },
	{ "cr\r", "\"cr\r\"" },
	{ " lead", "\" lead\"" },
	{ "trail ", "\"trail \"" },
	{ "in side", "in side" },
	{ "tab\tx", "tab\tx" },
};

START_TEST(test_csv_field)
{
	FILE *f = capture();

	csv_field(f, csv[_i].in, 1);
	ck_assert_str_eq(captured(f), csv[_i].out);
	ck_assert_int_eq(csv_needs_quotes(csv[_i].in), strcmp(csv[_i].in, csv[_i].out) != 0);
}
END_TEST

START_TEST(test_csv_record)
{
	FILE *f = capture();

	csv_field(f, "length", 1);
	csv_field(f, "a,b", 0);
	csv_field(f, "", 0);
	csv_end_record(f);
	ck_assert_str_eq(captured(f), "length,\"a,b\",\n");
}
END_TEST

START_TEST(test_format_table)
{
	static const char *const names[] = { "text", "json", "csv", "markdown", "svg", "classic" };
	char buf[128];

	for (int i = 0; i < 6; i++) {
		ck_assert_int_eq(emit_format_from_name(names[i]), i);
		ck_assert(emit_format_supported(EMIT_REPORT, i));
	}
	ck_assert_int_eq(emit_format_from_name("xml"), -1);
	ck_assert_int_eq(emit_format_from_name("CSV"), -1);
	ck_assert(!emit_format_supported(EMIT_REPORT, -1));
	ck_assert(emit_format_supported(EMIT_REPORT, ABBREV_FORMAT_PARTIAL));
	ck_assert(!emit_format_supported(EMIT_CHECK, ABBREV_FORMAT_PARTIAL));
	ck_assert(!emit_format_supported(EMIT_REPORT, ABBREV_FORMAT_PARTIAL + 1));
	ck_assert(emit_format_supported(EMIT_CHECK, ABBREV_FORMAT_CSV));
	ck_assert(!emit_format_supported(EMIT_CHECK, ABBREV_FORMAT_SVG));
	ck_assert(!emit_format_supported(EMIT_MODEL, ABBREV_FORMAT_CLASSIC));
	ck_assert(emit_format_supported(EMIT_MODEL, ABBREV_FORMAT_SVG));
	emit_format_names(buf, sizeof(buf), EMIT_REPORT);
	ck_assert_str_eq(buf, "text, json, csv, markdown, svg, classic or partial");
	emit_format_names(buf, sizeof(buf), EMIT_CHECK);
	ck_assert_str_eq(buf, "text, json or csv");
	emit_format_names(buf, sizeof(buf), EMIT_MODEL);
	ck_assert_str_eq(buf, "text, json, csv, markdown or svg");
	/* a short buffer is cut, never overrun */
	emit_format_names(buf, 8, EMIT_REPORT);
	ck_assert_str_eq(buf, "text, j");
	/* history and verify go through the same table */
	emit_format_names(buf, sizeof(buf), EMIT_HISTORY);
	ck_assert_str_eq(buf, "text, json, csv, markdown or svg");
	emit_format_names(buf, sizeof(buf), EMIT_VERIFY);
	ck_assert_str_eq(buf, "text, json or checkpatch");
	/* checkpatch is verify's alone */
	ck_assert(emit_format_supported(EMIT_VERIFY, ABBREV_FORMAT_CHECKPATCH));
	ck_assert(!emit_format_supported(EMIT_REPORT, ABBREV_FORMAT_CHECKPATCH));
	ck_assert(!emit_format_supported(EMIT_POLICY, ABBREV_FORMAT_CHECKPATCH));
}
END_TEST

/* One rule for counts in every format: grouped below 10^15, 3 digits from there. */
static const struct {
	double v;
	const char *s;
} counts[] = {
	{ 0, "0" }, { 7, "7" }, { 999, "999" }, { 1000, "1,000" }, { 13021585, "13,021,585" },
	{ 1e9, "1,000,000,000" }, { 999999999999999.0, "999,999,999,999,999" },
	{ 1e15, "1e+15" }, { 1.8446744073709552e19, "1.84e+19" }, { -1234, "-1,234" },
	{ 2.4, "2" }, { -0.2, "0" },
};

START_TEST(test_fmt_count)
{
	char buf[32];

	fmt_count(buf, sizeof(buf), counts[_i].v);
	ck_assert_str_eq(buf, counts[_i].s);
}
END_TEST

START_TEST(test_fmt_others)
{
	char buf[48];

	/* a short buffer: cut at a digit, never overrun */
	fmt_count(buf, 6, 13021585);
	ck_assert_str_eq(buf, "13,02");
	fmt_expected(buf, sizeof(buf), 1859.4);
	ck_assert_str_eq(buf, "1,859");
	fmt_expected(buf, sizeof(buf), 83.123);
	ck_assert_str_eq(buf, "83.12");
	fmt_expected(buf, sizeof(buf), 0.0031);
	ck_assert_str_eq(buf, "0.0031");
	fmt_expected(buf, sizeof(buf), 8.0e-5);
	ck_assert_str_eq(buf, "8e-05");
	/* E and P = 1 - exp(-E) side by side in the policy's rows read alike */
	{
		char p[48];

		fmt_expected(buf, sizeof(buf), 3.0e-3);
		emit_fmt_p(p, sizeof(p), -expm1(-3.0e-3), 2);
		ck_assert_str_eq(buf, "0.003");
		ck_assert_str_eq(p, buf);
	}
	fmt_expected(buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "0");
	/* the model's table: a count from 100 on, as the report writes one, never "1.97e+04" */
	fmt_sig(buf, sizeof(buf), 19740.4, 3);
	ck_assert_str_eq(buf, "19,740");
	fmt_sig(buf, sizeof(buf), 77.114, 3);
	ck_assert_str_eq(buf, "77.1");
	fmt_sig(buf, sizeof(buf), 0.018822, 3);
	ck_assert_str_eq(buf, "0.0188");
	fmt_sig(buf, sizeof(buf), 7.3512e-05, 3);
	ck_assert_str_eq(buf, "7.35e-05");
	fmt_iso_date(buf, sizeof(buf), 1112911993, 0);
	ck_assert_str_eq(buf, "2005-04-07T22:13:13Z");
	fmt_day(buf, sizeof(buf), 1112911993, 0);
	ck_assert_str_eq(buf, "2005-04-07");
	fmt_iso_date(buf, sizeof(buf), INT64_MAX, 0);
	ck_assert_str_eq(buf, "");
	fmt_year(buf, sizeof(buf), HUGE_VAL, 0);
	ck_assert_str_eq(buf, "never");
	fmt_year(buf, sizeof(buf), 1112911993, 0);
	ck_assert_str_eq(buf, "2005");
	/* 2019-12-31 23:30 -05:00 is 2020 in UTC: the year in the zone given */
	fmt_year(buf, sizeof(buf), 1577853000, 0);
	ck_assert_str_eq(buf, "2020");
	fmt_year(buf, sizeof(buf), 1577853000, -300);
	ck_assert_str_eq(buf, "2019");
	fmt_year(buf, sizeof(buf), 1577800800, 660); /* 2020-01-01 00:00 +11:00 */
	ck_assert_str_eq(buf, "2020");
	fmt_growth(buf, sizeof(buf), 1, log(1.049));
	ck_assert_str_eq(buf, "+4.9%/year");
	fmt_growth(buf, sizeof(buf), 0, -12345.4);
	ck_assert_str_eq(buf, "-12,345 commits/year");
	/* the tick labels of the charts group by the same rule */
	svg_fmt_number(buf, sizeof(buf), 65536);
	ck_assert_str_eq(buf, "65,536");
}
END_TEST

/* argv of words (copied: the parsers keep pointers into it) */
static char **words(const char *const *w, int *argc)
{
	static char buf[8][64];
	static char *argv[8];

	for (*argc = 0; w[*argc]; (*argc)++) {
		strcpy(buf[*argc], w[*argc]);
		argv[*argc] = buf[*argc];
	}
	return argv;
}

START_TEST(test_cli_formats)
{
	static const char *const classic[] = { "--format=classic", "--type=commit", "r", NULL };
	static const char *const typed_all[] = { "--type", "all", "--format", "classic", NULL };
	static const char *const svg[] = { "--format=svg", NULL };
	static const char *const type_text[] = { "--type=commit", NULL };
	static const char *const bad_type[] = { "--format=classic", "--type=note", NULL };
	static const char *const check_svg[] = { "12", "--format=svg", NULL };
	static const char *const check_xml[] = { "12", "--format=xml", NULL };
	static const char *const model_classic[] = { "--objects=5", "--format=classic", NULL };
	static const char *const model_md[] = { "--objects=5", "--format=markdown", NULL };
	cli_report_opts o;
	cli_check_opts c;
	cli_model_opts m;
	char err[256];
	char **argv;
	int argc;

	argv = words(classic, &argc);
	ck_assert_int_eq(cli_parse_report(&o, argc, argv, err, sizeof(err)), CLI_OK);
	ck_assert_int_eq(o.format, ABBREV_FORMAT_CLASSIC);
	ck_assert_int_eq(o.set, ABBREV_SET_COMMIT);
	ck_assert_uint_eq(o.nrepos, 1);
	argv = words(typed_all, &argc);
	ck_assert_int_eq(cli_parse_report(&o, argc, argv, err, sizeof(err)), CLI_OK);
	ck_assert_int_eq(o.set, ABBREV_SET_ALL);
	argv = words(svg, &argc);
	ck_assert_int_eq(cli_parse_report(&o, argc, argv, err, sizeof(err)), CLI_OK);
	ck_assert_int_eq(o.format, ABBREV_FORMAT_SVG);
	ck_assert_int_eq(o.set, ABBREV_SET_ALL);

	argv = words(type_text, &argc);
	ck_assert_int_eq(cli_parse_report(&o, argc, argv, err, sizeof(err)), CLI_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "classic"));
	argv = words(bad_type, &argc);
	ck_assert_int_eq(cli_parse_report(&o, argc, argv, err, sizeof(err)), CLI_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "note"));

	/* a format the command lacks names the ones it has */
	argv = words(check_svg, &argc);
	ck_assert_int_eq(cli_parse_check(&c, argc, argv, err, sizeof(err)), CLI_USAGE);
	ck_assert_str_eq(err, "no format 'svg' (check prints text, json or csv)");
	argv = words(check_xml, &argc);
	ck_assert_int_eq(cli_parse_check(&c, argc, argv, err, sizeof(err)), CLI_USAGE);
	ck_assert_str_eq(err, "unknown format 'xml' (check prints text, json or csv)");
	argv = words(model_classic, &argc);
	ck_assert_int_eq(cli_parse_model(&m, argc, argv, err, sizeof(err)), CLI_USAGE);
	ck_assert_str_eq(err, "no format 'classic' (model prints text, json, csv, markdown or svg)");
	argv = words(model_md, &argc);
	ck_assert_int_eq(cli_parse_model(&m, argc, argv, err, sizeof(err)), CLI_OK);
	ck_assert_int_eq(m.format, ABBREV_FORMAT_MARKDOWN);
}
END_TEST

/*
 * Six IDs laid out like the seed's last lines: two commits sharing 11
 * chars (21cf4d54d3c), a blob and a tree sharing 11 (8a048bbf895), a blob
 * sharing only "21cf" with the commits, and a loner.
 */
static const struct {
	const char *hex;
	int type;
} seedlike[] = {
	{ "21cf4d54d3c702ac20c6747fa6d4f64dee07dd11", ABBREV_TYPE_COMMIT },
	{ "8a048bbf895b1359e4a33b779ea6d7386cfe4de2", ABBREV_TYPE_TREE },
	{ "21cf4d54d3ced8a3e752030e483d72997721076d", ABBREV_TYPE_COMMIT },
	{ "21cf0000000000000000000000000000000000ff", ABBREV_TYPE_BLOB },
	{ "8a048bbf89528d45c604aed68f7e0f0ef957067d", ABBREV_TYPE_BLOB },
	{ "ffff000000000000000000000000000000000001", ABBREV_TYPE_TAG },
};

static const char classic_all[] =
	"6 objects\n"
	" 4: 5 / 2\n"
	" 5: 4 / 2\n"
	" 6: 4 / 2\n"
	" 7: 4 / 2\n"
	" 8: 4 / 2\n"
	" 9: 4 / 2\n"
	"10: 4 / 2\n"
	"11: 4 / 2\n"
	"12: 0 / 0\n"
	"21cf4d54d3c702ac20c6747fa6d4f64dee07dd11\n"
	"21cf4d54d3ced8a3e752030e483d72997721076d\n"
	"8a048bbf89528d45c604aed68f7e0f0ef957067d\n"
	"8a048bbf895b1359e4a33b779ea6d7386cfe4de2\n";

static const char classic_commit[] =
	"2 objects\n"
	" 4: 2 / 1\n"
	" 5: 2 / 1\n"
	" 6: 2 / 1\n"
	" 7: 2 / 1\n"
	" 8: 2 / 1\n"
	" 9: 2 / 1\n"
	"10: 2 / 1\n"
	"11: 2 / 1\n"
	"12: 0 / 0\n"
	"21cf4d54d3c702ac20c6747fa6d4f64dee07dd11\n"
	"21cf4d54d3ced8a3e752030e483d72997721076d\n";

/* one tree, one blob: no collision at all, the table stops at 4 */
static const char classic_blob[] =
	"2 objects\n"
	" 4: 0 / 0\n";

static const char classic_empty[] =
	"0 objects\n"
	" 4: 0 / 0\n";

START_TEST(test_classic)
{
	idsets *s = idsets_new(20);
	unsigned char raw[20];
	stats_report r;
	FILE *f;

	ck_assert_ptr_nonnull(s);
	for (size_t i = 0; i < sizeof(seedlike) / sizeof(seedlike[0]); i++) {
		test_id(raw, 20, seedlike[i].hex);
		ck_assert_int_eq(idsets_add(s, raw, seedlike[i].type), 1);
	}
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(stats_report_compute(&r, s), 0);
	r.set = ABBREV_SET_ALL;
	f = capture();
	ck_assert_int_eq(emit_report(f, &r, ABBREV_FORMAT_CLASSIC), 0);
	ck_assert_str_eq(captured(f), classic_all);
	r.set = ABBREV_SET_COMMIT;
	f = capture();
	ck_assert_int_eq(emit_report(f, &r, ABBREV_FORMAT_CLASSIC), 0);
	ck_assert_str_eq(captured(f), classic_commit);
	r.set = ABBREV_SET_BLOB;
	f = capture();
	ck_assert_int_eq(emit_report(f, &r, ABBREV_FORMAT_CLASSIC), 0);
	ck_assert_str_eq(captured(f), classic_blob);
	stats_report_clear(&r);
	idsets_free(s);

	s = idsets_new(20);
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(stats_report_compute(&r, s), 0);
	f = capture();
	ck_assert_int_eq(emit_report(f, &r, ABBREV_FORMAT_CLASSIC), 0);
	ck_assert_str_eq(captured(f), classic_empty);
	stats_report_clear(&r);
	idsets_free(s);
}
END_TEST

/*
 * Four commits in time order: the third shares "aaaa" with the first (L = 4
 * first collides at t = 3000 among 3 commits), the fourth "aaaa1" with the
 * third (L = 5 at t = 4000 among 4).
 */
static const char *const hist_ids[] = {
	"aaaa000000000000000000000000000000000000", "bbbb000000000000000000000000000000000000",
	"aaaa100000000000000000000000000000000000", "aaaa110000000000000000000000000000000000",
};
static const int64_t hist_times[] = { 1000, 2000, 3000, 4000 };

static void history_fixture(history_results *h, history_report *r)
{
	static const char *const repos[] = { "/tmp/r,1" };
	unsigned char ids[4 * 20];

	for (int i = 0; i < 4; i++)
		test_id(ids + i * 20, 20, hist_ids[i]);
	ck_assert_int_eq(history_compute(h, ids, hist_times, 4, 20), 0);
	ck_assert_uint_eq(h->longest, 5);
	memset(r, 0, sizeof(*r));
	r->repos = repos;
	r->nrepos = 1;
	r->objects = 12;
	r->h = h;
}

START_TEST(test_history_csv)
{
	history_results h;
	history_report r;
	char want[512];
	const char *out, *row;
	FILE *f;

	history_fixture(&h, &r);
	f = capture();
	ck_assert_int_eq(emit_history(f, &r, ABBREV_FORMAT_CSV), 0);
	out = captured(f);
	{
		static const char header[] = "length,collided,first_collision,date,commits_then,"
			"pair_older,pair_newer,shared,expected_commits,expected_date,p,"
			"commits_p01_year,commits_p50_year,objects_p01_year,objects_p50_year,"
			"repository\n";

		ck_assert_msg(!strncmp(out, header, strlen(header)), "header: %.200s", out);
	}
	snprintf(want, sizeof(want), "\n4,1,3000,1970-01-01T00:50:00Z,3,%s,%s,4,%.10g,,",
		 hist_ids[0], hist_ids[2], history_expected_first(4));
	ck_assert_msg(strstr(out, want) != NULL, "no %s in\n%s", want, out);
	snprintf(want, sizeof(want), "\n5,1,4000,1970-01-01T01:06:40Z,4,%s,%s,5,",
		 hist_ids[2], hist_ids[3]);
	ck_assert_msg(strstr(out, want) != NULL, "no %s in\n%s", want, out);
	/* not collided: empty cells, P among all commits now; no projection */
	row = strstr(out, "\n6,0,,,,,,,");
	ck_assert_ptr_nonnull(row);
	ck_assert_ptr_nonnull(strstr(row, ",,,,,\"/tmp/r,1\"\n"));
	/* rows 4 .. 16 and the header */
	{
		int lines = 0;

		for (const char *p = out; *p; p++)
			lines += *p == '\n';
		ck_assert_int_eq(lines, 1 + 13);
	}
	history_results_clear(&h);
}
END_TEST

START_TEST(test_history_markdown_svg)
{
	history_results h;
	history_report r;
	char want[256];
	const char *out, *p;
	FILE *f;
	int n = 0;

	history_fixture(&h, &r);
	f = capture();
	ck_assert_int_eq(emit_history(f, &r, ABBREV_FORMAT_MARKDOWN), 0);
	out = captured(f);
	ck_assert_ptr_nonnull(strstr(out, "### When each length stopped being unique: `r,1`\n\n"
					  "4 commits (sha1), committed 1970-01-01 .. 1970-01-01.\n"));
	/* the repository by name, never its local path */
	ck_assert_ptr_null(strstr(out, "/tmp/"));
	snprintf(want, sizeof(want), "| 4 | 1970-01-01 | 3 | %.0f | ",
		 round(history_expected_first(4)));
	ck_assert_msg(strstr(out, want) != NULL, "no %s in\n%s", want, out);
	/* the pair under the table, so that the rows fit 80 columns */
	ck_assert_ptr_nonnull(strstr(out, "\n- 4: `aaaa000000` `aaaa100000`\n"));
	ck_assert_ptr_null(strstr(out, "| `aaaa000000`"));
	ck_assert_ptr_nonnull(strstr(out, "\n| 6 | not yet | 4 | "));

	f = capture();
	ck_assert_int_eq(emit_history(f, &r, ABBREV_FORMAT_SVG), 0);
	out = captured(f);
	ck_assert_ptr_nonnull(strstr(out, "id=\"series-commit\""));
	ck_assert_ptr_nonnull(strstr(out, "commits now: 4"));
	for (p = out; (p = strstr(p, "class=\"point\"")); p++)
		n++;
	ck_assert_int_eq(n, 2);
	ck_assert_ptr_nonnull(strstr(out, "data-length=\"5\" data-commits=\"4\" data-time=\"4000\""));
	ck_assert_ptr_nonnull(strstr(out, "</svg>\n"));
	/* what history lacks */
	ck_assert(!emit_format_supported(EMIT_HISTORY, ABBREV_FORMAT_CLASSIC));
	ck_assert_int_eq(emit_history(stdout, &r, ABBREV_FORMAT_CLASSIC), -1);
	history_results_clear(&h);
}
END_TEST

START_TEST(test_repo_name)
{
	static const char *const two[] = { "/src/linux/.git", "/srv/git.git/" };
	char buf[64];

	emit_repo_name(buf, sizeof(buf), "/src/linux/.git");
	ck_assert_str_eq(buf, "linux");
	emit_repo_name(buf, sizeof(buf), "/srv/linux.git/");
	ck_assert_str_eq(buf, "linux");
	emit_repo_name(buf, sizeof(buf), "repo");
	ck_assert_str_eq(buf, "repo");
	emit_repo_name(buf, sizeof(buf), "/");
	ck_assert_str_eq(buf, "/");
	emit_repo_name(buf, sizeof(buf), ".git");
	ck_assert_str_eq(buf, ".git");
	emit_repo_name(buf, sizeof(buf), "a/.git");
	ck_assert_str_eq(buf, "a");
	emit_repo_names(buf, sizeof(buf), two, 2, 64);
	ck_assert_str_eq(buf, "linux + git");
	emit_repo_names(buf, sizeof(buf), two, 2, 9);
	ck_assert_str_eq(buf, "... + git");
	emit_repo_names(buf, sizeof(buf), two, 0, 64);
	ck_assert_str_eq(buf, "");
}
END_TEST

/* Whether the segment (ax, ay)-(bx, by) passes through the box b[4] (x0, x1, y0, y1). */
static int crosses(double ax, double ay, double bx, double by, const double b[4])
{
	for (int s = 0; s <= 64; s++) {
		double x = ax + (bx - ax) * s / 64, y = ay + (by - ay) * s / 64;

		if (x >= b[0] && x <= b[1] && y >= b[2] && y <= b[3])
			return 1;
	}
	return 0;
}

/*
 * The projection's level labels are clear of its curves: 200,000 commits
 * whose count passes 148,664 (10 chars reach P = 1% there) early in the
 * fit's window, as git.git's did in 2022.  The label of 10 chars must
 * cross neither the measured count (<polyline class="measured-count">)
 * nor a fit (<path class="fit ...">): its box as tests/svgcheck.py draws
 * it (0.62 em a char of 12 px, from 0.75 em above the baseline to 0.22
 * below), the curves point to point.
 */
START_TEST(test_svg_level_labels)
{
	const size_t n = 200000, before = 130000;
	const int64_t t0 = 1112911993, year = 31556952;
	static const char *const repos[] = { "/tmp/r" };
	unsigned char *ids = malloc(n * 20);
	int64_t *times = malloc(n * sizeof(*times));
	uint64_t x = 88172645463325252ull;
	history_results h;
	projection_results p;
	projection_opts o;
	history_report r;
	const char *out, *g, *t, *e, *c;
	double tx, ty, box[4], w;
	char label[128];
	FILE *f;

	ck_assert_ptr_nonnull(ids);
	ck_assert_ptr_nonnull(times);
	/* random IDs; 130,000 commits over 11 years, then 70,000 over 5 */
	for (size_t i = 0; i < n * 20; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ids[i] = (unsigned char)(x >> 32);
	}
	for (size_t i = 0; i < n; i++)
		times[i] = i < before ? t0 + (int64_t)((double)i / before * 11.0 * year)
				      : t0 + 11 * year + (int64_t)((double)(i - before) / (n - before) *
								   5.0 * year);
	ck_assert_int_eq(history_compute(&h, ids, times, n, 20), 0);
	projection_opts_init(&o);
	ck_assert_int_eq(projection_compute(&p, h.times, n, 4 * n, &o), 0);
	ck_assert_int_eq(p.status, PROJECTION_OK);
	r = (history_report){ repos, 1, 0, 4 * n, &h, &p, NULL, NULL };
	f = capture();
	ck_assert_int_eq(emit_history(f, &r, ABBREV_FORMAT_SVG), 0);
	out = captured(f);

	g = strstr(out, "<g class=\"level\" data-length=\"10\"");
	ck_assert_msg(g != NULL, "no level of 10 chars in the panel");
	t = strstr(g, "<text");
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(sscanf(strstr(t, " x=\""), " x=\"%lf\" y=\"%lf\"", &tx, &ty), 2);
	e = strchr(t, '>') + 1;
	ck_assert_int_lt((int)(strchr(e, '<') - e), (int)sizeof(label));
	snprintf(label, sizeof(label), "%.*s", (int)(strchr(e, '<') - e), e);
	ck_assert_msg(strstr(label, "10 chars: P = 1% at 148,6") == label, "%s", label);
	w = 0.62 * 12 * (double)strlen(label);
	box[0] = strstr(t, "text-anchor=\"end\"") && strstr(t, "text-anchor=\"end\"") < e ? tx - w : tx;
	box[1] = box[0] + w;
	box[2] = ty - 0.75 * 12;
	box[3] = ty + 0.22 * 12;

	/* the measured count: "x,y x,y ..." */
	c = strstr(out, "class=\"measured-count\"");
	ck_assert_ptr_nonnull(c);
	c = strstr(c, "points=\"") + 8;
	{
		double px = 0, py = 0, qx, qy;
		int k = 0, used;

		while (sscanf(c, "%lf,%lf%n", &qx, &qy, &used) == 2) {
			ck_assert_msg(!(k && crosses(px, py, qx, qy, box)),
				      "the measured count crosses '%s' at %.1f,%.1f (box %.1f..%.1f x "
				      "%.1f..%.1f)", label, qx, qy, box[0], box[1], box[2], box[3]);
			px = qx;
			py = qy;
			k++;
			c += used;
		}
		ck_assert_int_gt(k, 10);
	}
	/* the fits: d="Mx yLx y..." */
	for (c = out; (c = strstr(c, "<path class=\"fit fit-")) != NULL; c++) {
		const char *d = strstr(c, " d=\"") + 4;
		double px = 0, py = 0, qx, qy;
		int k = 0, used;

		while ((*d == 'M' || *d == 'L') && sscanf(d + 1, "%lf %lf%n", &qx, &qy, &used) == 2) {
			ck_assert_msg(!(k && crosses(px, py, qx, qy, box)),
				      "a fit crosses '%s' at %.1f,%.1f", label, qx, qy);
			px = qx;
			py = qy;
			k++;
			d += 1 + used;
		}
		ck_assert_int_gt(k, 10);
	}
	/*
	 * each fit's count at the horizon (<text class="point-label fit-end">,
	 * anchored at its end) clear of both fits by 1 px beyond half their
	 * width: the linear fit, rising under its label, touched it on git.git
	 */
	for (t = out; (t = strstr(t, "<text class=\"point-label fit-end\"")) != NULL; t++) {
		ck_assert_int_eq(sscanf(strstr(t, " x=\""), " x=\"%lf\" y=\"%lf\"", &tx, &ty), 2);
		e = strchr(t, '>') + 1;
		snprintf(label, sizeof(label), "%.*s", (int)(strchr(e, '<') - e), e);
		w = 0.62 * 12 * (double)strlen(label);
		for (c = out; (c = strstr(c, "<path class=\"fit fit-")) != NULL; c++) {
			const char *d = strstr(c, " d=\"") + 4;
			double px = 0, py = 0, qx, qy, hw;
			int k = 0, used;

			ck_assert_int_eq(sscanf(strstr(c, "stroke-width=\""), "stroke-width=\"%lf", &hw), 1);
			hw = hw / 2 + 1;
			box[0] = tx - w - hw;
			box[1] = tx + hw;
			box[2] = ty - 0.75 * 12 - hw;
			box[3] = ty + 0.22 * 12 + hw;
			while ((*d == 'M' || *d == 'L') &&
			       sscanf(d + 1, "%lf %lf%n", &qx, &qy, &used) == 2) {
				ck_assert_msg(!(k && crosses(px, py, qx, qy, box)),
					      "a fit touches '%s' at %.1f,%.1f", label, qx, qy);
				px = qx;
				py = qy;
				k++;
				d += 1 + used;
			}
		}
	}
	history_results_clear(&h);
	free(ids);
	free(times);
}
END_TEST

/* --title is the chart's title; without it the chart is named after the repository */
START_TEST(test_svg_title)
{
	history_results h;
	history_report r;
	const char *out;
	FILE *f;

	history_fixture(&h, &r);
	f = capture();
	ck_assert_int_eq(emit_history(f, &r, ABBREV_FORMAT_SVG), 0);
	out = captured(f);
	ck_assert_ptr_nonnull(strstr(out, "<title>r,1: 4 commits: "));
	ck_assert_ptr_null(strstr(out, "/tmp/r,1"));
	r.title = "Fixes: <12> & 16";
	f = capture();
	ck_assert_int_eq(emit_history(f, &r, ABBREV_FORMAT_SVG), 0);
	out = captured(f);
	ck_assert_ptr_nonnull(strstr(out, "<title>Fixes: &lt;12&gt; &amp; 16</title>"));
	ck_assert_ptr_nonnull(strstr(out, ">Fixes: &lt;12&gt; &amp; 16</text>"));
	history_results_clear(&h);
}
END_TEST

Suite *make_formats_suite(void)
{
	Suite *s = suite_create("formats");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_checked_fixture(core, NULL, teardown);
	tcase_add_checked_fixture(errors, NULL, teardown);
	tcase_add_test(core, test_scale_linear);
	tcase_add_test(core, test_scale_log);
	tcase_add_test(core, test_log_range);
	tcase_add_test(core, test_ticks);
	tcase_add_loop_test(core, test_fmt_number, 0, (int)(sizeof(numbers) / sizeof(numbers[0])));
	tcase_add_test(core, test_fmt_number_small_buffer);
	tcase_add_loop_test(core, test_svg_text, 0, (int)(sizeof(xml) / sizeof(xml[0])));
	tcase_add_test(core, test_svg_wrapped);
	tcase_add_loop_test(core, test_csv_field, 0, (int)(sizeof(csv) / sizeof(csv[0])));
	tcase_add_test(core, test_csv_record);
	tcase_add_test(core, test_format_table);
	tcase_add_loop_test(core, test_fmt_count, 0, (int)(sizeof(counts) / sizeof(counts[0])));
	tcase_add_test(core, test_fmt_others);
	tcase_add_test(core, test_classic);
	tcase_add_test(core, test_history_csv);
	tcase_add_test(core, test_history_markdown_svg);
	tcase_add_test(core, test_repo_name);
	tcase_add_test(core, test_svg_title);
	tcase_add_test(core, test_svg_level_labels);
	tcase_add_test(errors, test_cli_formats);
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return s;
}
