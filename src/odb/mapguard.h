/*
 * mapguard.h - a mapped file cut short by another process: one line and
 * an exit status, not death by SIGBUS.
 *
 * Reading a page of a mapping past the file's new end faults (SIGBUS).
 * The pack walker's scan catches that itself and fails with a message
 * (walk_pack.c); everything else that reads mapped files (verify's
 * commit reader objread.c, the .idx look-ups, the commit-graph, the
 * subject cache files of subject_cache.c) names
 * its maps here, and a fault inside a named map ends the program with
 * "<prog>: <path>: the file was cut short while it was read ..." on
 * stderr and the status the command-line layer chose.  There is no way
 * to read on: every answer from that file would be short.  A fault
 * outside the named maps takes the default action, as before.
 *
 * Ownership: mapguard_name() copies `path`; the names live until the
 * program ends (a forgotten map's entry is reused).
 */
#ifndef ABBREV_MAPGUARD_H
#define ABBREV_MAPGUARD_H

#include <stddef.h>

/*
 * Catch SIGBUS from now on (once, from main): a fault in a named map
 * writes one line, prefixed "prog: ", and exits with `status`.
 */
void mapguard_install(const char *prog, int status);

/* Name the map [base, base + len) for that message: 0, or -1 when out of memory. */
int mapguard_name(const void *base, size_t len, const char *path);

/* The map at `base` is unmapped (NULL: nothing). */
void mapguard_forget(const void *base);

#endif
