// SPDX-License-Identifier: GPL-2.0-only
/*
 * erase: discard a byte range of a block device (BLKDISCARD), so that a
 * flash card starts a write test from erased allocation units.  Shaped
 * like util-linux blkdiscard: size and logical block size come from the
 * kernel, the range is checked against them, then the ioctl runs.
 *
 * Exit status: 0 done, 1 the device refused or failed (busy, mounted,
 * held, I/O error, no discard support), 2 bad command line.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockdev.h"
#include "dev.h"
#include "format.h"

#define EXIT_BAD_USAGE 2

/* Named as it was run: erase in the tree, flashbench-erase installed. */
static const char *prog = "erase";

/* The help text, in util-linux layout. */
static void usage(FILE *out)
{
	fprintf(out,
		"\nUsage:\n"
		" %s [options] <device> <start> <length>\n"
		"\nDiscard (BLKDISCARD) <length> bytes of <device> from byte <start>,\n"
		"so that a flash card erases them before a write test.\n"
		"<device> may also be a regular file, which gets a hole.\n"
		"\nArguments:\n"
		" <start>, <length>  bytes; decimal, 0x hex, or with a K, M, G or\n"
		"                    T suffix (KiB .. TiB); both aligned to the\n"
		"                    logical block size of the device\n"
		"\nOptions:\n"
		" -h, --help         display this help\n"
		" -V, --version      display version\n"
		"\nThe device must not be mounted or in use; every byte of the range\n"
		"is lost.  See flashbench(1).\n",
		prog);
}

/* A bad command line: say why on one line, exit 2. */
static void bad_usage(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

static void bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%s --help)\n", prog);
	exit(EXIT_BAD_USAGE);
}

/* Parse a byte count argument named what, or exit 2. */
static uint64_t parse_arg(const char *what, const char *s)
{
	uint64_t val;
	int ret = parse_size(s, &val);

	if (ret == -ERANGE)
		bad_usage("%s '%s' is too large", what, s);
	if (ret)
		bad_usage("invalid %s '%s'", what, s);
	return val;
}

/* Flush stdout and report a write error there (status 1). */
static int close_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: write error on standard output: %s\n",
			prog, strerror(errno));
		return EXIT_FAILURE;
	}
	return status;
}

/* Open path exclusively for writing, or explain and exit 1. */
static struct device *open_device(const char *path)
{
	struct device *dev;
	char holder[512];
	int ret;

	ret = dev_open(&dev, path, DEV_WRITE | DEV_EXCL, holder,
		       sizeof(holder));
	if (ret == -EBUSY && holder[0]) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, holder);
		exit(EXIT_FAILURE);
	}
	if (ret == -EROFS) {
		fprintf(stderr, "%s: %s: the device is write-protected\n", prog,
			path);
		exit(EXIT_FAILURE);
	}
	if (ret == -ENOTBLK) {
		fprintf(stderr, "%s: %s: not a block device\n", prog, path);
		exit(EXIT_FAILURE);
	}
	if (ret) {
		fprintf(stderr, "%s: %s: cannot open: %s\n", prog, path,
			strerror(-ret));
		exit(EXIT_FAILURE);
	}
	return dev;
}

/* Is [start, start + len) inside dev and aligned?  Else exit 2. */
static void check_range(struct device *dev, uint64_t start, uint64_t len)
{
	unsigned int lbs = dev->logical_block_size;

	if (start % lbs || len % lbs) {
		fprintf(stderr,
			"%s: %s: %s %" PRIu64 " is not aligned to the logical block size (%u bytes)\n",
			prog, dev->path, (start % lbs) ? "start" : "length",
			(start % lbs) ? start : len, lbs);
		goto out_close;
	}
	if (start > dev->size_byte || len > dev->size_byte - start) {
		fprintf(stderr,
			"%s: %s: %" PRIu64 " bytes from %" PRIu64 " is beyond the end of the device (%" PRIu64 " bytes)\n",
			prog, dev->path, len, start, dev->size_byte);
		goto out_close;
	}
	return;

out_close:
	dev_close(dev);
	exit(EXIT_BAD_USAGE);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t start, len;
	struct device *dev;
	const char *path;
	char why[256];
	int c, ret;

	if (*program_invocation_short_name)
		prog = program_invocation_short_name;
	opterr = 0;	/* its messages name argv[0], the full path */
	while ((c = getopt_long(argc, argv, "+:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return close_stdout(EXIT_SUCCESS);
		case 'V':
			printf("%s from flashbench %s\n", prog,
			       FLASHBENCH_VERSION);
			return close_stdout(EXIT_SUCCESS);
		default:	/* '?' or ':' */
			bad_usage("%s", getopt_problem(why, sizeof(why), c,
						       argc, argv, longopts));
		}
	}
	if (argc - optind != 3)
		bad_usage("expected <device> <start> <length>, got %d argument%s",
			  argc - optind, argc - optind == 1 ? "" : "s");
	path = argv[optind];
	start = parse_arg("start", argv[optind + 1]);
	len = parse_arg("length", argv[optind + 2]);
	if (!len)
		bad_usage("length must not be zero");

	dev = open_device(path);
	check_range(dev, start, len);

	fprintf(stderr, "%s: will overwrite bytes %" PRIu64 "-%" PRIu64
		" on %s\n", prog, start, start + len, path);
	printf("erasing %" PRIu64 " to %" PRIu64 " on %s\n", start,
	       start + len, path);
	fflush(stdout);

	ret = dev_discard(dev, (off_t)start, len, NULL);
	if (ret) {
		fprintf(stderr, "%s: %s: discard of bytes %" PRIu64 "-%" PRIu64
			" failed: %s\n", prog, path, start, start + len,
			ret == -EOPNOTSUPP ? "the device cannot discard"
					   : strerror(-ret));
		dev_close(dev);
		return close_stdout(EXIT_FAILURE);
	}
	dev_close(dev);
	return close_stdout(EXIT_SUCCESS);
}
