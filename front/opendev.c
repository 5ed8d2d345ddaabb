// SPDX-License-Identifier: GPL-2.0-only
/*
 * Open DEVICE or the simulated card of --simulate, hand it to the tests'
 * hook (flashbench.h: the hooks live here, not in main), put it behind
 * --preserve's guard and --time-ops' counter, read its card registers,
 * and close it again.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockdev.h"
#include "cli.h"
#include "flashbench.h"
#include "preserve.h"
#include "sim.h"
#include "wrap.h"

/* The tests' view of the devices opened (flashbench.h); unused in use. */
unsigned int flashbench_dev_opens;
uint64_t flashbench_io_calls;
struct device *(*flashbench_open_hook)(struct device *dev);

/* DEVICE's size for messages: a regular file's own, not its whole blocks. */
static uint64_t told_size(const struct cli *c, const struct device *dev)
{
	struct stat st;

	if (!c->simulate && c->device && !stat(c->device, &st) &&
	    S_ISREG(st.st_mode))
		return (uint64_t)st.st_size;
	return dev->size_byte;
}

/* Create the simulated card of --simulate; returns 0 or an exit status. */
static int open_sim(struct cli *c, struct device **devp)
{
	struct sim_params p;
	char why[256] = "";
	int ret;

	sim_params_default(&p);
	if (c->sim_spec && sim_parse_spec(&p, c->sim_spec, why, sizeof(why)))
		return usage_error(c->err, "invalid --simulate '%s': %s",
				   c->sim_spec, why);
	ret = sim_open(devp, &p);
	if (ret) {
		fprintf(c->err, "flashbench: cannot create the simulated card: %s\n",
			strerror(-ret));
		return EXIT_DEVICE;
	}
	return 0;
}

/* Nonzero if path names a block device. */
static int is_block_device(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISBLK(st.st_mode);
}

/*
 * Open DEVICE: read-only for the read tests, exclusively and read-write
 * as soon as one test writes.  Returns 0 or an exit status.
 */
static int open_real(struct cli *c, struct device **devp)
{
	unsigned int flags = 0;
	char holder[256] = "";
	int ret;

	if (tests_writing(c->tests) || c->destructive || c->restore)
		flags = DEV_WRITE | DEV_EXCL;
	ret = dev_open(devp, c->device, flags, holder, sizeof(holder));
	if (ret && holder[0]) {
		size_t len = strlen(c->device);

		/* "/dev/sdb is mounted on /media/x": the device named once */
		if (!strncmp(holder, c->device, len) && holder[len] == ' ')
			wrap_printf(c->err, "flashbench:   ", "flashbench: %s\n",
				    holder);
		else
			wrap_printf(c->err, "flashbench:   ",
				    "flashbench: %s: %s\n", c->device, holder);
		return EXIT_DEVICE;
	}
	/* not a device at all: a bad command line, not a failing device */
	if (ret == -EISDIR || ret == -ENOTBLK)
		return usage_error(c->err, "invalid DEVICE '%s': %s",
				   c->device, ret == -ENOTBLK ?
				   "neither a block device nor a regular file" :
				   "a directory");
	/* a card's write-protect switch, not a read-only file system */
	if (ret == -EROFS && is_block_device(c->device)) {
		fprintf(c->err, "flashbench: %s: the device is write-protected\n",
			c->device);
		return EXIT_DEVICE;
	}
	/* a device only root may open: say how (util-linux's tools do not) */
	if ((ret == -EACCES || ret == -EPERM) && geteuid() &&
	    is_block_device(c->device)) {
		wrap_printf(c->err, "flashbench:   ",
			    "flashbench: cannot open %s: %s (only root may open it: run flashbench with sudo)\n",
			    c->device, strerror(-ret));
		return EXIT_DEVICE;
	}
	if (ret) {
		fprintf(c->err, "flashbench: cannot open %s: %s\n", c->device,
			strerror(-ret));
		return EXIT_DEVICE;
	}
	return 0;
}

/*
 * With --preserve, put DEVICE behind a guard that notes in the journal
 * what the tests write (preserve.h), so that --restore can later tell
 * the test's data from anything written since.  0 or EXIT_DEVICE.
 */
static int guard_device(struct cli *c, struct device **devp)
{
	struct device *g;
	int ret;

	if (!c->preserve || c->simulate)
		return 0;
	ret = preserve_wrap(&g, *devp);
	if (ret) {
		fprintf(c->err, "flashbench: --preserve: %s\n", strerror(-ret));
		dev_close(*devp);
		*devp = NULL;
		return EXIT_DEVICE;
	}
	*devp = g;
	return 0;
}

/* Open DEVICE or the simulated card; returns 0 or an exit status. */
static int open_guarded(struct cli *c, struct device **devp)
{
	int ret;

	*devp = NULL;
	ret = c->simulate ? open_sim(c, devp) : open_real(c, devp);
	if (ret)
		return ret;
	flashbench_dev_opens++;
	if (flashbench_open_hook)
		*devp = flashbench_open_hook(*devp);
	ret = guard_device(c, devp);
	if (ret)
		return ret;
	c->run.dev_byte = told_size(c, *devp);
	return 0;
}

int open_device(struct cli *c, struct device **devp)
{
	int ret = open_guarded(c, devp);

	if (ret)
		return ret;
	if (c->time_ops)
		*devp = timeops_attach(&c->run.tops, *devp);
	device_card(c, *devp, &c->run.card_raw, &c->run.card);
	c->o.card = &c->run.card;
	if (c->o.verbose)
		fprintf(c->err,
			"flashbench: %s: %" PRIu64 " bytes, logical block %u bytes\n",
			(*devp)->path, (*devp)->size_byte,
			(*devp)->logical_block_size);
	return 0;
}

void close_device(struct device *dev)
{
	if (!dev)
		return;
	flashbench_io_calls += dev->io_count;
	dev_close(dev);
}
