/*
 * csv.h - fields of comma-separated values as RFC 4180 writes them.
 *
 * A field is quoted only when it must be: when it holds a comma, a double
 * quote, a CR or an LF, or starts or ends with a space (which some readers
 * trim); a double quote inside is doubled.  Records end with a bare LF
 * (the RFC's CRLF is optional in practice: every CSV reader takes LF, and
 * shell tools such as cut and awk would keep the CR in the last field).
 * Ownership: nothing is kept; the caller owns the strings and the FILE *.
 */
#ifndef ABBREV_CSV_H
#define ABBREV_CSV_H

#include <stdio.h>

/* Whether s must be quoted. */
int csv_needs_quotes(const char *s);

/* Write s as one field (quoted if needed), preceded by a comma unless first. */
void csv_field(FILE *out, const char *s, int first);

/* End the record. */
void csv_end_record(FILE *out);

#endif
