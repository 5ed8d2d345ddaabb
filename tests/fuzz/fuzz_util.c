// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers shared by the libFuzzer harnesses (see fuzz_util.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include "fuzz_util.h"
#include "sim.h"

/* The budget of the one device being rationed. */
static struct {
	struct device *dev;		/* the rationed device, or NULL */
	const struct dev_ops *ops;	/* its own operations */
	uint64_t left;			/* I/O calls it may still make */
	uint64_t bytes_left;		/* bytes it may still transfer */
} budget;

uint64_t fuzz_budget_refused;

/*
 * Take one I/O call (moving len bytes unless it is a discard) from the
 * budget; 0 or -EIO (recorded in dev).
 */
static int budget_take(struct device *dev, const char *op, off_t off,
		       uint64_t len)
{
	uint64_t moved = op[0] == 'd' ? 0 : len;

	if (budget.left && moved <= budget.bytes_left) {
		budget.left--;
		budget.bytes_left -= moved;
		return 0;
	}
	fuzz_budget_refused++;
	return dev_fail(dev, op, off, len, EIO);
}

static int budget_read(struct device *dev, void *buf, size_t len, off_t off)
{
	int ret = budget_take(dev, "read", off, len);

	return ret ? ret : budget.ops->read(dev, buf, len, off);
}

static int budget_write(struct device *dev, const void *buf, size_t len,
			off_t off)
{
	int ret = budget_take(dev, "write", off, len);

	return ret ? ret : budget.ops->write(dev, buf, len, off);
}

static int budget_discard(struct device *dev, off_t off, uint64_t len)
{
	int ret = budget_take(dev, "discard", off, len);

	return ret ? ret : budget.ops->discard(dev, off, len);
}

static uint64_t budget_now_ns(struct device *dev)
{
	return budget.ops->now_ns(dev);
}

static void budget_destroy(struct device *dev)
{
	const struct dev_ops *ops = budget.ops;

	if (budget.dev == dev) {
		budget.dev = NULL;
		budget.ops = NULL;
	}
	dev->ops = ops;
	ops->destroy(dev);
}

static const struct dev_ops budget_ops = {
	.read = budget_read,
	.write = budget_write,
	.discard = budget_discard,
	.now_ns = budget_now_ns,
	.destroy = budget_destroy,
};

void fuzz_budget(struct device *dev, uint64_t max_io)
{
	if (budget.dev)
		fuzz_fail("fuzz_budget: a rationed device is still open");
	budget.dev = dev;
	budget.ops = dev->ops;
	budget.left = max_io;
	budget.bytes_left = FUZZ_MAX_BYTES;
	dev->ops = &budget_ops;
}

int fuzz_sim_open(struct device **devp, const char *spec)
{
	struct sim_params p;
	char why[256];
	int ret;

	sim_params_default(&p);
	if (spec && sim_parse_spec(&p, spec, why, sizeof(why)))
		return -EINVAL;
	ret = sim_open(devp, &p);
	if (ret)
		return ret;
	fuzz_budget(*devp, FUZZ_MAX_IO);
	return 0;
}

FILE *fuzz_null(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		fuzz_fail("cannot open /dev/null");
	return f;
}

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
