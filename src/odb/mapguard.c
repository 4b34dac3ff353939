/*
 * mapguard.c - a mapped file cut short under us (mapguard.h).
 *
 * The names are a list that only grows; an entry is freed by setting its
 * base to NULL and reused by the next name.  The signal handler only
 * reads the list (atomic loads) and writes with write(2) and _exit(2),
 * both safe in a handler; the changes are made under a mutex.
 */
#include <config.h>

#include "mapguard.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct map_name {
	struct map_name *next;
	const char *base;     /* NULL: a free entry */
	size_t len;
	char *path;
} map_name;

static map_name *names;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *prog_name = "";
static int exit_status = 3;

/* Append s to the message at *pos, as far as it fits (in the handler: no stdio). */
static void put(char *msg, size_t cap, size_t *pos, const char *s)
{
	while (*s && *pos + 1 < cap)
		msg[(*pos)++] = *s++;
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	const char *a = si->si_addr;

	(void)uc;
	for (map_name *n = __atomic_load_n(&names, __ATOMIC_ACQUIRE); n; n = n->next) {
		const char *b = __atomic_load_n(&n->base, __ATOMIC_ACQUIRE);

		if (b && a >= b && (size_t)(a - b) < n->len) {
			char msg[4200];
			size_t pos = 0;

			put(msg, sizeof(msg), &pos, prog_name);
			put(msg, sizeof(msg), &pos, ": ");
			put(msg, sizeof(msg), &pos, n->path);
			put(msg, sizeof(msg), &pos, ": the file was cut short while it was read "
						   "(truncated by another process?)");
			msg[pos++] = '\n';
			if (write(STDERR_FILENO, msg, pos) < 0) {
				/* nothing more can be said */
			}
			_exit(exit_status);
		}
	}
	/* not a map named here: the default action, when the access runs again */
	signal(sig, SIG_DFL);
}

void mapguard_install(const char *prog, int status)
{
	struct sigaction sa;

	prog_name = prog;
	exit_status = status;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

int mapguard_name(const void *base, size_t len, const char *path)
{
	char *copy = strdup(path);
	map_name *n;

	if (!copy)
		return -1;
	pthread_mutex_lock(&lock);
	/* a map unmapped unnamed and its address used again: the same entry */
	for (n = names; n && n->base != base; n = n->next)
		;
	if (!n)
		for (n = names; n && n->base; n = n->next)
			;
	if (!n) {
		n = calloc(1, sizeof(*n));
		if (!n) {
			pthread_mutex_unlock(&lock);
			free(copy);
			return -1;
		}
		n->next = names;
		__atomic_store_n(&names, n, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&n->base, NULL, __ATOMIC_RELEASE);
	free(n->path);
	n->path = copy;
	n->len = len;
	__atomic_store_n(&n->base, (const char *)base, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lock);
	return 0;
}

void mapguard_forget(const void *base)
{
	if (!base)
		return;
	pthread_mutex_lock(&lock);
	for (map_name *n = names; n; n = n->next)
		if (n->base == base) {
			__atomic_store_n(&n->base, NULL, __ATOMIC_RELEASE);
			break;
		}
	pthread_mutex_unlock(&lock);
}
