// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of tests, the front end's composition root: every test
 * flashbench runs is one row of operations (test.h), in the classic run
 * order; runtests.c runs the rows a command line asks for, all the same
 * way.  Adding a test is a row here and its files below.
 */
#include "autorun.h"
#include "c.h"
#include "cli.h"
#include "test.h"

static const struct test *const tests[] = {
	&scatter_test, &find_fat_test, &align_test, &open_au_test,
	&interval_test, &program_test, &capacity_test, &class_test,
	&auto_test,
};

const struct test *const *const test_table = tests;
const size_t test_table_nr = ARRAY_SIZE(tests);

_Static_assert(ARRAY_SIZE(tests) <= TESTS_MAX,
	       "TESTS_MAX must hold every test");

const struct test *test_of(unsigned int bit)
{
	size_t i;

	for (i = 0; i < test_table_nr; i++)
		if (tests[i]->test == bit)
			return tests[i];
	return NULL;
}

int tests_writing(unsigned int bits)
{
	size_t i;

	for (i = 0; i < test_table_nr; i++)
		if ((bits & tests[i]->test) && tests[i]->writes)
			return 1;
	return 0;
}

int tests_own_data(unsigned int bits)
{
	const struct test *t = test_of(bits);	/* NULL unless one bit */

	return t && t->own_data;
}

unsigned int tests_alone(unsigned int bits)
{
	unsigned int alone = 0;
	size_t i;

	for (i = 0; i < test_table_nr; i++)
		if ((bits & tests[i]->test) && tests[i]->alone)
			alone |= tests[i]->test;
	return alone;
}

int tests_destructive(unsigned int bits)
{
	size_t i;

	for (i = 0; i < test_table_nr; i++)
		if ((bits & tests[i]->test) && tests[i]->writes_destructive)
			return 1;
	return 0;
}

unsigned int tests_using(unsigned int bits, int destructive)
{
	unsigned int using = bits;
	size_t i;

	for (i = 0; destructive && i < test_table_nr; i++)
		if (bits & tests[i]->test)
			using |= tests[i]->takes_options;
	return using;
}

const struct test *tests_timing(void)
{
	size_t i;

	for (i = 0; i < test_table_nr; i++)
		if (tests[i]->times_ops)
			return tests[i];
	return NULL;
}
