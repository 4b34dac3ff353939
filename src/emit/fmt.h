/*
 * fmt.h - how git-abbrev writes numbers, dates and years, in every format.
 *
 * One rule per kind of number, so that one value is spelled the same in
 * the text, Markdown, SVG and the history's quote:
 *  - counts: digits grouped by thousands ("13,021,585") below 10^15, "%.3g"
 *    from there on (no one counts those digits), rounded to a whole number;
 *  - the model's expected values: a count from 100 on, "0.63" from 0.01,
 *    below that as probabilities ("0.0031", "3.1e-05"), "0" for 0; the
 *    model's own table keeps three significant digits below 100;
 *  - probabilities: two significant digits, "%.2g";
 *  - dates: UTC, "2005-04-07 22:13:13", the day alone, or ISO 8601;
 *  - projected dates (unix seconds as doubles, HUGE_VAL for never): the
 *    calendar year, "never", or "1.2e+06" far out.
 * CSV and JSON write the raw values instead (see their emitters).
 *
 * Ownership: callers own every buffer; each function NUL-terminates it
 * (when n > 0) and never writes past n bytes.
 */
#ifndef ABBREV_FMT_H
#define ABBREV_FMT_H

#include <stddef.h>
#include <stdint.h>

/* 13021585 -> "13,021,585"; -1234 -> "-1,234"; 2e15 -> "2e+15". */
void fmt_count(char *buf, size_t n, double v);

/* A model's expected value: "1,234", "83.12", "0.63", "0.0031", "3.1e-05", "0". */
void fmt_expected(char *buf, size_t n, double e);

/*
 * A real value to `digits` significant digits ("%.*g": "77.1", "0.0188",
 * "7.35e-05"), but from 100 on a whole count grouped as fmt_count does
 * ("19,740", never "1.97e+04"): the model's expected values, where the
 * small ones need their digits more than a report's column does.
 */
void fmt_sig(char *buf, size_t n, double v, int digits);

/* A percentage of a probability: "1%", "0.1%", "50%", "3.4e-05%". */
void fmt_percent(char *buf, size_t n, double p);

/*
 * Dates in the zone tz (minutes east of UTC): a commit's in its
 * committer's zone, as git shows it (`git log --date=short`, `%cI`); an
 * instant that is no commit's (today) with tz 0, UTC.
 */

/* "2005-04-07 22:13:13"; "-" outside years 0..9999. */
void fmt_date(char *buf, size_t n, int64_t t, int tz);

/* "2005-04-07"; "-" outside years 0..9999. */
void fmt_day(char *buf, size_t n, int64_t t, int tz);

/* "2005-04-07T22:13:13Z" (tz 0), "2005-04-07T15:13:13-07:00"; "" outside years 0..9999. */
void fmt_iso_date(char *buf, size_t n, int64_t t, int tz);

/*
 * The calendar year of a date in the zone tz (minutes east of UTC; 0 for
 * a projected date, a commit's committer's zone for a commit's):
 * "2031", "never" (not finite), "1.2e+06".
 */
void fmt_year(char *buf, size_t n, double t, int tz);

/*
 * A fitted growth: "+4.9%/year" for an exponential rate r (per year,
 * continuous), "+12,345 commits/year" for a linear slope.
 */
void fmt_growth(char *buf, size_t n, int exponential, double growth);

#endif
