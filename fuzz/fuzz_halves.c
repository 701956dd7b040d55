/* SPDX-License-Identifier: MIT */
/* fuzz/fuzz_halves.c — the .pir reader on two readers (a large file's
 * read), built with the library's sources.
 * Property: wherever the second reader begins (each line that begins with
 * a value name, up to 64 of them), the module, its positions and use
 * lists, or the diagnostics, are what one reader makes of the text. */
#include <config.h>

#include "split_same.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char *text = (const char *)data;
	size_t tried = 0;
	for (size_t k = 1; k < size && tried < 64; k++) {
		if (text[k - 1] != '\n')
			continue;
		size_t s = k;
		while (s < size && (text[s] == ' ' || text[s] == '\t'))
			s++;
		if (s == size || text[s] != '%')
			continue;
		bool taken;
		if (!split_same(text, size, k - 1, &taken))
			abort();
		tried++;
	}
	return 0;
}
