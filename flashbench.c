// SPDX-License-Identifier: GPL-2.0-only
/* flashbench front end (placeholder until it lands). */
#include <stdio.h>

int flashbench_main(int argc, char **argv, FILE *out, FILE *err);

int flashbench_main(int argc, char **argv, FILE *out, FILE *err)
{
	(void)argc;
	(void)argv;
	(void)out;
	fprintf(err, "flashbench: not yet\n");
	return 2;
}

#ifndef FLASHBENCH_NO_MAIN
int main(int argc, char **argv)
{
	return flashbench_main(argc, argv, stdout, stderr);
}
#endif
