/* SPDX-License-Identifier: MIT */
/* fuzz/fuzz_predicate.c — the constraint parser and the exact counter.
 * Input: byte 0 gives the rank (1..4), the next rank bytes the extents
 * (0..7), the rest is constraints separated by newlines. Property: any text
 * either parses or is refused with a column inside it; when all parse, the
 * count equals plain enumeration of the (small) domain. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <passline/passline.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t rank = 1 + data[0] % 4;
	if (size < 1 + rank)
		return 0;
	int64_t ext[4];
	for (size_t k = 0; k < rank; k++)
		ext[k] = data[1 + k] % 8;
	const char *text = (const char *)data + 1 + rank;
	size_t len = size - 1 - rank;

	pl_constraint *cs[16];
	size_t n = 0;
	int ok = 1;
	while (len && n < 16) {
		const char *nl = memchr(text, '\n', len);
		size_t l = nl ? (size_t)(nl - text) : len;
		size_t col = 0;
		const char *msg = NULL;
		int rc = pl_constraint_parse(text, l, rank, &cs[n], &col, &msg);
		if (rc == PL_OK) {
			n++;
		} else {
			if (rc != PL_EPARSE || !msg || col < 1 || col > l + 1)
				abort(); /* an error must say where, inside the text */
			ok = 0;
		}
		text += l + (nl ? 1 : 0);
		len -= l + (nl ? 1 : 0);
	}
	if (ok) {
		uint64_t got;
		int rc = pl_domain_count(ext, rank, (const pl_constraint *const *)cs, n, &got);
		if (rc != PL_OK && rc != PL_ELIMIT)
			abort();
		if (rc == PL_OK) {
			uint64_t want = 0;
			int64_t idx[4] = {0, 0, 0, 0};
			int64_t total = 1;
			for (size_t k = 0; k < rank; k++)
				total *= ext[k];
			for (int64_t p = 0; p < total; p++) {
				int64_t rest = p;
				for (size_t k = rank; k-- > 0;) {
					idx[k] = rest % ext[k];
					rest /= ext[k];
				}
				int all = 1;
				for (size_t c = 0; c < n && all; c++)
					all = pl_constraint_eval(cs[c], idx);
				want += (uint64_t)all;
			}
			if (got != want) {
				fprintf(stderr, "count %llu, enumeration %llu\n",
				        (unsigned long long)got, (unsigned long long)want);
				abort();
			}
		}
	}
	for (size_t c = 0; c < n; c++)
		pl_constraint_free(cs[c]);
	return 0;
}
