/*
 * fmt.c - numbers, dates and years as people read them (see fmt.h for
 * the rules).  The only place that groups digits by thousands.
 */
#include <config.h>

#include "fmt.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "projection.h"

#define COUNT_EXACT_BELOW 1e15

void fmt_count(char *buf, size_t n, double v)
{
	char digits[32];
	const char *d = digits;
	size_t len, o = 0;

	if (!n)
		return;
	if (!isfinite(v) || fabs(v) >= COUNT_EXACT_BELOW) {
		snprintf(buf, n, "%.3g", v);
		return;
	}
	snprintf(digits, sizeof(digits), "%.0f", v);
	if (!strcmp(digits, "-0"))
		d++;
	if (*d == '-' && o + 1 < n)
		buf[o++] = *d++;
	len = strlen(d);
	for (size_t i = 0; i < len && o + 1 < n; i++) {
		if (i && (len - i) % 3 == 0) {
			if (o + 2 >= n)
				break;
			buf[o++] = ',';
		}
		buf[o++] = d[i];
	}
	buf[o] = '\0';
}

void fmt_expected(char *buf, size_t n, double e)
{
	if (e >= 100 || !isfinite(e))
		fmt_count(buf, n, e);
	else if (e == 0)
		snprintf(buf, n, "0");
	else
		/* below 0.01 as a probability is written, so that E and P = 1 - exp(-E),
		   side by side in a row, read alike ("0.003", "0.003"), never "3.0e-03" */
		snprintf(buf, n, e >= 0.01 ? "%.2f" : "%.2g", e);
}

void fmt_sig(char *buf, size_t n, double v, int digits)
{
	if (fabs(v) >= 100 || !isfinite(v))
		fmt_count(buf, n, v);
	else
		snprintf(buf, n, "%.*g", digits, v);
}

void fmt_percent(char *buf, size_t n, double p)
{
	snprintf(buf, n, "%.2g%%", 100 * p);
}

/*
 * t in the zone tz as "YYYY-MM-DD<sep>HH:MM:SS" and, with `zone`, the
 * zone ("Z" for UTC, else "+HH:MM"); day only: just the date; `bad`
 * outside years 0..9999.
 */
static void date_with(char *buf, size_t n, int64_t t, int tz, char sep, int zone, int day,
		      const char *bad)
{
	int64_t local = t + (int64_t)tz * 60;
	time_t tt = (time_t)local;
	struct tm tm;
	char z[16] = "";

	if (!n)
		return;
	if ((int64_t)tt != local || !gmtime_r(&tt, &tm) || tm.tm_year > 9999 - 1900 ||
	    tm.tm_year < 0 - 1900) {
		snprintf(buf, n, "%s", bad);
		return;
	}
	if (zone && !tz)
		snprintf(z, sizeof(z), "Z");
	else if (zone)
		snprintf(z, sizeof(z), "%c%02d:%02d", tz < 0 ? '-' : '+', abs(tz) / 60 % 100,
			 abs(tz) % 60);
	if (day)
		snprintf(buf, n, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
	else
		snprintf(buf, n, "%04d-%02d-%02d%c%02d:%02d:%02d%s", tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday, sep, tm.tm_hour, tm.tm_min, tm.tm_sec, z);
}

void fmt_date(char *buf, size_t n, int64_t t, int tz)
{
	date_with(buf, n, t, tz, ' ', 0, 0, "-");
}

void fmt_day(char *buf, size_t n, int64_t t, int tz)
{
	date_with(buf, n, t, tz, ' ', 0, 1, "-");
}

void fmt_iso_date(char *buf, size_t n, int64_t t, int tz)
{
	date_with(buf, n, t, tz, 'T', 1, 0, "");
}

void fmt_year(char *buf, size_t n, double t, int tz)
{
	double y;

	if (!isfinite(t)) {
		snprintf(buf, n, "never");
		return;
	}
	y = floor(projection_year(t + 60.0 * tz));
	snprintf(buf, n, fabs(y) < 1e6 ? "%.0f" : "%.2g", y);
}

void fmt_growth(char *buf, size_t n, int exponential, double growth)
{
	char num[48];

	if (exponential) {
		double pct = 100.0 * expm1(growth);

		snprintf(buf, n, fabs(pct) < 1e6 ? "%+.1f%%/year" : "%+.3g%%/year", pct);
	} else {
		fmt_count(num, sizeof(num), fabs(growth));
		snprintf(buf, n, "%s%s commits/year", growth < 0 ? "-" : "+", num);
	}
}
