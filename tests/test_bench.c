// SPDX-License-Identifier: GPL-2.0-only
#include "util.h"

Suite *bench_suite(void)
{
	return suite_create("bench");
}
