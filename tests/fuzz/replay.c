/*
 * replay.c - run a fuzz target's function over files, without libFuzzer:
 * `make check` replays every seed and every input that once crashed
 * (tests/fuzz/corpus-*) through the ordinary build, and so through the
 * sanitizers when configured with --enable-sanitizers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *buf = NULL;
		size_t n = 0, cap = 0, got;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (n == cap) {
				unsigned char *b = realloc(buf, cap = cap ? 2 * cap : 4096);

				if (!b)
					return 2;
				buf = b;
			}
			got = fread(buf + n, 1, cap - n, f);
			n += got;
		} while (got);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	return 0;
}
