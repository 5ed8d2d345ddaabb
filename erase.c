// SPDX-License-Identifier: GPL-2.0-only
/* erase: discard a byte range of a block device (placeholder). */
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "erase: not yet\n");
	return 2;
}
