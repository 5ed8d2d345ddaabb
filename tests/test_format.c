// SPDX-License-Identifier: GPL-2.0-only
#include "util.h"

Suite *format_suite(void)
{
	return suite_create("format");
}
