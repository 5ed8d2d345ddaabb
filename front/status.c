// SPDX-License-Identifier: GPL-2.0-only
/*
 * How a run ends (status.h): the exit statuses a result maps to, the
 * stop signal, and the messages of a refused command line or a failed
 * test.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "bench.h"
#include "c.h"
#include "status.h"
#include "wrap.h"

volatile sig_atomic_t stop_signal;

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

void stop_catch(struct stop_old *old)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	for (i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		sigaction(stop_sigs[i], &sa, &old->sa[i]);
	dev_set_stop_flag(&stop_signal);
}

void stop_release(const struct stop_old *old)
{
	size_t i;

	dev_set_stop_flag(NULL);
	for (i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		sigaction(stop_sigs[i], &old->sa[i], NULL);
}

/* The message of a refused command line, wrapped at 80 columns. */
static void usage_say(FILE *err, const char *fmt, va_list ap)
{
	struct wrap w;
	FILE *f = wrap_begin(&w, err, "flashbench:   ");

	fputs("flashbench: ", f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	wrap_end(&w);
}

int usage_error(FILE *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_say(err, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int usage_error_help(FILE *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_say(err, fmt, ap);
	va_end(ap);
	fputs("Try 'flashbench --help' for more information.\n", err);
	return EXIT_USAGE;
}

int test_failed(FILE *err, const struct device *dev, const char *option,
		int ret)
{
	const struct dev_error *e = &dev->last_error;

	if (e->op && e->err)
		wrap_printf(err, "flashbench:   ",
			    "flashbench: %s of %" PRIu64 " bytes at offset %lld on %s failed: %s\n",
			    e->op, e->len_byte, (long long)e->off_byte,
			    dev->path, strerror(e->err));
	else
		fprintf(err, "flashbench: %s failed: %s\n", option,
			strerror(-ret));
	return EXIT_DEVICE;
}

int short_status(int bench)
{
	switch (bench) {
	case BENCH_SHORT:
		return EXIT_SHORT;
	case BENCH_LIMBO:
		return EXIT_LIMBO;
	case BENCH_WRAP:
		return EXIT_WRAP;
	default:
		return 0;
	}
}

int short_worst(int a, int b)
{
	return a > b ? a : b;
}
