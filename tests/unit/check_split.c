/* SPDX-License-Identifier: MIT */
/* tests/unit/check_split.c — reading on two readers, the second from a
 * line in the middle of a function (sdk/text/read.c, sdk/text/splice.c), gives what
 * one reader gives: the same module (printed text, positions, use lists)
 * or the same diagnostics, wherever the second reader begins. Built with
 * the library's sources: the split point is internal. */
#include <config.h>

#include <dirent.h>
#include <stdio.h>

#include "testutil.h"
#include "../../fuzz/split_same.h"

/* Every line that begins with a value name, as the second reader's
 * first, in turn: the count of those where its work was used. */
static size_t check_every_line(const char *text)
{
	size_t len = strlen(text), taken = 0;
	for (size_t from = 1; from < len; from++) {
		if (text[from - 1] != '\n' || text[from + strspn(text + from, " \t")] != '%')
			continue;
		bool t = false;
		ck_assert_msg(split_same(text, len, from - 1, &t), "split at offset %zu", from);
		taken += t;
	}
	return taken;
}

static const char good[] =
	"func @f(%a: f32[4], %b: f32[4]) attributes {name = \"f\", n = [1, [2, \"x\"]]} {\n"
	"  %c = add %a, %b {tag = \"one\", big = 5000000000, lr = 0.5, pair = [5000000000, 0.5]} : f32[4]\n"
	"  %d, %e = split %c {sizes = [2, 2]} : (f32[2], f32[2])\n"
	"  %g = mul %d, %a : f32[2]\n"
	"  store %g, %b\n"
	"  %h = add %c, %c {tag = \"t\\\"wo\", list = [\"a\", \"b\"]} : f32[4]\n"
	"  %i = add %h, %a {tag = \"one\", pair = [5000000000, 0.5], neg = -4000000000} : f32[4]\n"
	"  %j = all_gather %i {group_id = \"dp\", factor = 8, fsdp = true} : f32[32]\n"
	"  %k = add %j, %j {lr = 0.5, big = 5000000000, far = [[-4000000000], 0.25]} : f32[32]\n"
	"  store %k, %a\n"
	"}\n"
	"func @g(%x: i32[]) {\n"
	"  %y = add %x, %x {tag = \"one\"} : i32[]\n"
	"  %z = add %y, %x : i32[]\n"
	"}\n"
	"func @h() {\n"
	"  %p = iota {n = 3} : i32[3]\n"
	"  %q = add %p, %p : i32[3]\n"
	"}\n";

START_TEST(same_module_from_every_line)
{
	/* the lines that begin with a value name inside a body: 11 of them,
	 * each read by the second reader and used */
	ck_assert_uint_eq(check_every_line(good), 11);
}
END_TEST

START_TEST(same_module_with_the_first_instruction_of_a_function)
{
	/* the second reader begins at a function's first instruction, and
	 * the values it uses are all arguments */
	const char text[] = "func @f(%a: f32[]) {\n"
	                    "  %b = add %a, %a : f32[]\n"
	                    "}\n";
	bool taken = false;
	ck_assert(split_same(text, strlen(text), 0, &taken));
	ck_assert(taken);
}
END_TEST

/* Texts the rest of which does not fit, or that are wrong: the
 * diagnostics are one reader's, wherever the second begins. */
static const char *const wrong[] = {
	/* used after the middle, defined nowhere */
	"func @f(%a: f32[]) {\n  %b = add %a, %a : f32[]\n  %c = add %b, %nope : f32[]\n}\n",
	/* defined before the middle, and again after it */
	"func @f(%a: f32[]) {\n  %b = add %a, %a : f32[]\n  %c = add %b, %b : f32[]\n"
	"  %b = add %c, %c : f32[]\n}\n",
	/* used after the middle before its definition there */
	"func @f(%a: f32[]) {\n  %b = add %a, %a : f32[]\n  %c = add %d, %b : f32[]\n"
	"  %d = add %b, %b : f32[]\n}\n",
	/* the same, with a value of that name before the middle */
	"func @f(%a: f32[]) {\n  %d = add %a, %a : f32[]\n  %c = add %d, %d : f32[]\n"
	"  %d = add %c, %c : f32[]\n}\n",
	/* a function defined twice, the second after the middle */
	"func @f(%a: f32[]) {\n  %b = add %a, %a : f32[]\n}\nfunc @g(%a: f32[]) {\n"
	"  %b = add %a, %a : f32[]\n}\nfunc @f(%a: f32[]) {\n  %b = add %a, %a : f32[]\n}\n",
	/* a syntax error after the middle, and an undefined value before it */
	"func @f(%a: f32[]) {\n  %b = add %a, %zz : f32[]\n  %c = add %b, %b : f32[]\n"
	"  %d = add %c, %c : f32[\n}\n",
	/* an unknown dtype late, a wrong result count later */
	"func @f(%a: f32[]) {\n  %b = add %a, %a : f32[]\n  %c = add %b, %b : q7[]\n"
	"  %d, %e = add %c, %c : f32[]\n}\n",
	/* a function that does not end */
	"func @f(%a: f32[]) {\n  %b = add %a, %a : f32[]\n  %c = add %b, %b : f32[]\n",
	/* an argument of the function after the middle used in it */
	"func @f(%a: f32[]) {\n  %b = add %a, %a : f32[]\n}\nfunc @g(%x: f32[]) {\n"
	"  %y = add %x, %a : f32[]\n}\n",
};

START_TEST(same_diagnostics_for_wrong_text)
{
	for (size_t k = 0; k < sizeof wrong / sizeof *wrong; k++)
		ck_assert_uint_eq(check_every_line(wrong[k]), 0);
}
END_TEST

/* Lines that begin with a value name but do not begin an instruction:
 * the second reader's work is not used, and nothing differs. */
START_TEST(lines_inside_an_instruction)
{
	const char text[] = "func @f(\n  %a: f32[],\n  %b: f32[]) {\n"
	                    "  %c = add\n    %a,\n    %b : f32[]\n"
	                    "  %d,\n  %e = split %c : (f32[], f32[])\n"
	                    "  store %d,\n  %e\n"
	                    "  %f = add %d, %e // %g = add\n  : f32[]\n"
	                    "}\n";
	size_t len = strlen(text);
	const char *starts[] = {"    %a,", "    %b :", "  %e = split", "  %e\n", "  %a: f32"};
	for (size_t k = 0; k < sizeof starts / sizeof *starts; k++) {
		size_t at = (size_t)(strstr(text, starts[k]) - text);
		bool t = true;
		ck_assert(split_same(text, len, at - 1, &t));
		ck_assert_msg(!t, "used a second reader from %s", starts[k]);
	}
	ck_assert_uint_eq(check_every_line(text), 3); /* %c, %d and %f begin instructions */
}
END_TEST

/* The modules under tests/ (the small ones), from every line. */
static void check_dir(const char *dir, size_t *files)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (n < 4 || strcmp(e->d_name + n - 4, ".pir") != 0) {
			check_dir(path, files);
			continue;
		}
		FILE *f = fopen(path, "rb");
		ck_assert_ptr_nonnull(f);
		char *buf = malloc(32769);
		size_t len = fread(buf, 1, 32768, f);
		bool whole = feof(f);
		fclose(f);
		if (whole) {
			buf[len] = '\0';
			if (strlen(buf) == len) {
				check_every_line(buf);
				++*files;
			}
		}
		free(buf);
	}
	closedir(d);
}

START_TEST(same_for_the_test_modules)
{
	size_t files = 0;
	check_dir(TEST_SRCDIR, &files);
	ck_assert_uint_gt(files, 20);
}
END_TEST

/* The text in sb read on two readers, the second from the line after
 * split, gives what one gives, and the second reader's work is used. */
static void same_and_taken(struct pl_strbuf *sb, size_t split)
{
	ck_assert(!sb->failed);
	bool taken = false;
	ck_assert(split_same(sb->data, sb->len, split, &taken));
	ck_assert(taken);
	pl_sb_free(sb);
}

START_TEST(shared_dictionaries_far_apart)
{
	/* The second reader numbers its keys in another order than the first
	 * (ka, kb, u against k1, k2, then ka, kb, u), and one dictionary of
	 * the rest is shared by every other instruction among 6000 of their
	 * own: each array's keys must be renumbered once, however far apart
	 * the instructions that share it. */
	struct pl_strbuf sb = {0};
	pl_sb_puts(&sb, "func @f(%a: f32[4]) {\n"
	                "  %x = add %a, %a {k1 = 1, k2 = \"s\"} : f32[4]\n");
	size_t split = sb.len - 1;
	for (int k = 0; k < 6000; k++) {
		pl_sb_printf(&sb, "  %%d%d = add %%a, %%a {ka = \"t\", kb = 5} : f32[4]\n", k);
		pl_sb_printf(&sb, "  %%u%d = add %%a, %%a {u = %d, ka = \"t\"} : f32[4]\n", k, k);
	}
	pl_sb_puts(&sb, "}\n");
	same_and_taken(&sb, split);
}
END_TEST

START_TEST(lists_met_again_far_apart)
{
	/* The rest's lists hold a string the first reader has too ("s", whose
	 * copy in the rest is given up for the first's), and one of them
	 * comes back on every other instruction among 6000 lists of their
	 * own, further apart than the splice remembers lists it made: made
	 * again, it must be found equal and stay interned, one list. */
	struct pl_strbuf sb = {0};
	pl_sb_puts(&sb, "func @f(%a: f32[4]) {\n"
	                "  %x = add %a, %a {k = \"s\"} : f32[4]\n");
	size_t split = sb.len - 1;
	for (int k = 0; k < 6000; k++)
		pl_sb_printf(&sb, "  %%d%d = add %%a, %%a {l = [\"s\", 0.5, [\"s\"]]} : f32[4]\n"
		             "  %%u%d = add %%a, %%a {l = [%d, \"s\", [%d.5]]} : f32[4]\n",
		             k, k, k, k);
	pl_sb_puts(&sb, "}\n");
	same_and_taken(&sb, split);
}
END_TEST

START_TEST(op_names_numbered_apart)
{
	/* The second reader numbers the op names it does not know in another
	 * order than the first (acme.r, acme.q, acme.s against acme.p,
	 * acme.q), and each instruction keeps only its op's number: the rest's
	 * numbers must be those of the first reader's module after the
	 * splice, or the ops would print under other names. */
	struct pl_strbuf sb = {0};
	pl_sb_puts(&sb, "func @f(%a: f32[4]) {\n"
	                "  %x = acme.p %a : f32[4]\n"
	                "  %y = acme.q %x : f32[4]\n");
	size_t split = sb.len - 1;
	for (int k = 0; k < 3000; k++)
		pl_sb_printf(&sb, "  %%r%d = acme.r %%a : f32[4]\n  %%q%d = acme.q %%r%d : f32[4]\n"
		             "  %%s%d = acme.s %%q%d : f32[4]\n  %%t%d = all_gather %%s%d "
		             "{group_id = \"dp\", factor = 2} : f32[8]\n",
		             k, k, k, k, k, k, k);
	pl_sb_puts(&sb, "  %z = acme.p %y : f32[4]\n}\n");
	same_and_taken(&sb, split);
}
END_TEST

static Suite *split_suite(void)
{
	Suite *s = suite_create("split");
	TCase *tc = tcase_create("read on two readers");
	/* some 1,700 reads on two threads: 11 s under AddressSanitizer alone,
	 * several times that beside other suites on a loaded machine */
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, same_module_from_every_line);
	tcase_add_test(tc, same_module_with_the_first_instruction_of_a_function);
	tcase_add_test(tc, same_diagnostics_for_wrong_text);
	tcase_add_test(tc, lines_inside_an_instruction);
	tcase_add_test(tc, same_for_the_test_modules);
	tcase_add_test(tc, shared_dictionaries_far_apart);
	tcase_add_test(tc, op_names_numbered_apart);
	tcase_add_test(tc, lists_met_again_far_apart);
	suite_add_tcase(s, tc);
	return s;
}

TU_MAIN(split_suite)
