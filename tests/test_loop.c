// SPDX-License-Identifier: GPL-2.0-only
#include "util.h"

Suite *loop_suite(void)
{
	return suite_create("loop");
}

void loop_report(void)
{
}
