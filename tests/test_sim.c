// SPDX-License-Identifier: GPL-2.0-only
#include "util.h"

Suite *sim_suite(void)
{
	return suite_create("sim");
}
