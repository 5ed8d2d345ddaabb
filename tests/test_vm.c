// SPDX-License-Identifier: GPL-2.0-only
#include "util.h"

Suite *vm_suite(void)
{
	return suite_create("vm");
}
