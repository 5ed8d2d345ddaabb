// SPDX-License-Identifier: GPL-2.0-only
/*
 * fusecard: the simulated card shown to the kernel, so that other tools
 * (classic flashbench, f3probe, fio) can run on it.  A FUSE filesystem
 * with one file, "card", whose reads and writes go to a simulated card
 * built from a --simulate SPEC; a loop device over that file (see
 * run-peer) turns it into a block device.  Tests and benchmarks only:
 * flashbench itself never links libfuse.
 *
 * Timing: the card charges each request a virtual cost; the request then
 * takes that long in real time (times --scale), measured from when this
 * daemon starts serving it, so a peer timing its I/O sees the card's
 * costs plus the kernel's own overhead.  The wait sleeps until shortly
 * before the deadline and spins on CLOCK_MONOTONIC for the rest: a plain
 * sleep wakes tens of microseconds late, and the align test reads
 * differences of about 150 us.
 *
 * One request at a time (a single-threaded loop): the card's history is
 * the order in which the kernel sent the requests.  The real time between
 * the end of one request and the start of the next (divided by --scale)
 * is the card's idle time (dev_idle()), in which it folds its write cache
 * and does its maintenance, as a card in a slot would; --idle-min-us
 * leaves out the gaps up to that long (the kernel's own round trip
 * within one run of commands, which --scale below 1 would make long idle
 * spells of, folding a cache the peer is still writing).  The file's
 * logical block size is the card's (--sector-size prints it for
 * run-peer's losetup).  The file is opened
 * with direct_io, so no page cache sits between the kernel's requests
 * and the card: every read and write of the loop device reaches it.
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dev.h"
#include "sim.h"

/* The one file the filesystem holds. */
#define CARD_NAME	"card"
#define CARD_PATH	"/" CARD_NAME

/* By default, sleep until this long before a deadline, then spin (us). */
#define SPIN_US_DEFAULT	200

/* Largest request the kernel may send (FUSE allows 256 pages). */
#define MAX_REQ_BYTE	(1024 * 1024)

/* What one kind of request cost, summed over the run. */
struct op_stats {
	uint64_t count;		/* requests served */
	uint64_t bytes;		/* bytes moved (discarded for discards) */
	uint64_t card_ns;	/* the card's virtual cost */
	uint64_t real_ns;	/* real time from start of service to reply */
	uint64_t late_ns;	/* real time past the deadline, summed */
	uint64_t late_max_ns;	/* the largest of those */
	uint64_t overruns;	/* requests whose deadline had passed already */
	uint64_t errors;	/* requests the card refused */
};

enum op_kind { OP_READ, OP_WRITE, OP_DISCARD, OP_NR };

static const char *const op_name[OP_NR] = { "read", "write", "discard" };

/* The daemon's whole state (FUSE callbacks get no other argument). */
struct fusecard {
	struct device *card;
	double scale;		/* real ns per virtual ns */
	uint64_t spin_ns;	/* spin for the last this many ns of a wait */
	uint64_t idle_min_ns;	/* real gaps up to this long are no idle */
	FILE *trace;		/* one line per request, or NULL */
	uint64_t start_ns;	/* monotonic time the loop started */
	uint64_t last_end_ns;	/* monotonic time the last request ended */
	struct op_stats st[OP_NR];
};

static struct fusecard fc;

/* Wait until the monotonic clock reads deadline_ns: sleep, then spin. */
static void wait_until(uint64_t deadline_ns)
{
	uint64_t now = dev_monotonic_ns();
	struct timespec ts;

	if (deadline_ns > now + fc.spin_ns) {
		uint64_t wake = deadline_ns - fc.spin_ns;

		ts.tv_sec = (time_t)(wake / 1000000000ULL);
		ts.tv_nsec = (long)(wake % 1000000000ULL);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
	}
	while (dev_monotonic_ns() < deadline_ns)
		;
}

/*
 * Finish a request that started at start_ns and cost the card card_ns:
 * hold it until its scaled cost has passed, then account for it.
 */
static void finish(enum op_kind k, uint64_t start_ns, off_t off,
		   uint64_t len, uint64_t card_ns, int ret)
{
	struct op_stats *s = &fc.st[k];
	uint64_t deadline = start_ns + (uint64_t)llround(card_ns * fc.scale);
	uint64_t end, late;

	if (dev_monotonic_ns() > deadline)
		s->overruns++;
	wait_until(deadline);
	end = dev_monotonic_ns();
	late = end - deadline;
	s->count++;
	s->bytes += ret ? 0 : len;
	s->errors += ret != 0;
	s->card_ns += card_ns;
	s->real_ns += end - start_ns;
	s->late_ns += late;
	if (late > s->late_max_ns)
		s->late_max_ns = late;
	fc.last_end_ns = end;
	/* seconds since mount, op, offset, length, card ns, real ns, -errno */
	if (fc.trace)
		fprintf(fc.trace, "%.6f %s %jd %" PRIu64 " %" PRIu64 " %" PRIu64
			" %d\n", (start_ns - fc.start_ns) / 1e9, op_name[k],
			(intmax_t)off, len, card_ns, end - start_ns, ret);
}

/*
 * A request starts at start_ns: the card was left idle since the last
 * one ended, for that time divided by --scale.
 */
static void card_idle(uint64_t start_ns)
{
	if (fc.last_end_ns && start_ns > fc.last_end_ns + fc.idle_min_ns)
		dev_idle(fc.card, (uint64_t)llround((double)(start_ns -
				   fc.last_end_ns) / fc.scale));
}

/* The length of a request at off clipped to the card, or 0 past it. */
static size_t clip(size_t len, off_t off)
{
	uint64_t size = fc.card->size_byte;

	if (off < 0 || (uint64_t)off >= size)
		return 0;
	return len < size - (uint64_t)off ? len : (size_t)(size - off);
}

static int fc_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, CARD_PATH))
		return -ENOENT;
	st->st_mode = S_IFREG | 0600;
	st->st_nlink = 1;
	st->st_size = (off_t)fc.card->size_byte;
	st->st_blksize = fc.card->logical_block_size > 4096 ?
			 fc.card->logical_block_size : 4096;
	st->st_blocks = (blkcnt_t)(fc.card->size_byte / 512);
	return 0;
}

static int fc_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOTDIR;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, CARD_NAME, NULL, 0, 0);
	return 0;
}

/* direct_io: the kernel keeps no page cache of the card. */
static int fc_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, CARD_PATH))
		return -ENOENT;
	fi->direct_io = 1;
	fi->keep_cache = 0;
	return 0;
}

/* A size change is refused; truncating to the card's size is a no-op. */
static int fc_truncate(const char *path, off_t size,
		       struct fuse_file_info *fi)
{
	(void)fi;
	if (strcmp(path, CARD_PATH))
		return -ENOENT;
	return (uint64_t)size == fc.card->size_byte ? 0 : -EPERM;
}

static int fc_read(const char *path, char *buf, size_t len, off_t off,
		   struct fuse_file_info *fi)
{
	uint64_t start = dev_monotonic_ns(), card_ns = 0;
	int ret;

	(void)path;
	(void)fi;
	len = clip(len, off);
	if (!len)
		return 0;
	card_idle(start);
	ret = dev_read(fc.card, buf, len, off, &card_ns);
	finish(OP_READ, start, off, len, card_ns, ret);
	return ret ? ret : (int)len;
}

static int fc_write(const char *path, const char *buf, size_t len,
		    off_t off, struct fuse_file_info *fi)
{
	uint64_t start = dev_monotonic_ns(), card_ns = 0;
	int ret;

	(void)path;
	(void)fi;
	if (clip(len, off) != len)
		return -ENOSPC;
	card_idle(start);
	ret = dev_write(fc.card, buf, len, off, &card_ns);
	finish(OP_WRITE, start, off, len, card_ns, ret);
	return ret ? ret : (int)len;
}

/* A discard of the loop device arrives as a hole punched in the file. */
static int fc_fallocate(const char *path, int mode, off_t off, off_t len,
			struct fuse_file_info *fi)
{
	uint64_t start = dev_monotonic_ns(), card_ns = 0;
	int ret;

	(void)path;
	(void)fi;
	if (!(mode & FALLOC_FL_PUNCH_HOLE))
		return -EOPNOTSUPP;
	if (len <= 0 || clip((size_t)len, off) != (size_t)len)
		return -EINVAL;
	card_idle(start);
	ret = dev_discard(fc.card, off, (uint64_t)len, &card_ns);
	finish(OP_DISCARD, start, off, (uint64_t)len, card_ns, ret);
	return ret;
}

static int fc_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	(void)datasync;
	(void)fi;
	return dev_flush(fc.card);
}

/*
 * Large requests in one piece (the kernel splits what is larger), no
 * attribute or entry caching that matters, and no writeback cache.
 */
static void *fc_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	conn->max_write = MAX_REQ_BYTE;
	conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->use_ino = 0;
	fc.start_ns = dev_monotonic_ns();
	return NULL;
}

static const struct fuse_operations fc_ops = {
	.init = fc_init,
	.getattr = fc_getattr,
	.readdir = fc_readdir,
	.open = fc_open,
	.truncate = fc_truncate,
	.read = fc_read,
	.write = fc_write,
	.fallocate = fc_fallocate,
	.fsync = fc_fsync,
};

/* Write the per-kind totals, one line each, to f. */
static void print_stats(FILE *f)
{
	int k;

	fprintf(f, "# op count bytes card_ns real_ns late_mean_ns "
		   "late_max_ns overruns errors\n");
	for (k = 0; k < OP_NR; k++) {
		const struct op_stats *s = &fc.st[k];

		fprintf(f, "%s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
			" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			op_name[k], s->count, s->bytes, s->card_ns, s->real_ns,
			s->count ? s->late_ns / s->count : 0, s->late_max_ns,
			s->overruns, s->errors);
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: fusecard [options] <mountpoint>\n"
		"Show a simulated card as the file <mountpoint>/" CARD_NAME
		" (tests only).\n\n"
		"  -S, --simulate[=<spec>]  the card, as flashbench --simulate"
		"\n"
		"  -x, --scale <factor>     real time per unit of card time"
		" (default 1)\n"
		"      --spin-us <us>       spin for the last <us> of each wait"
		" (default %d)\n"
		"      --idle-min-us <us>   gaps between requests up to <us>"
		" (real time)\n"
		"                           are no idle for the card (default"
		" 0)\n"
		"      --stats <file>       per-kind totals at exit\n"
		"      --trace <file>       one line per request\n"
		"      --sector-size        print the card's logical block"
		" size and exit\n"
		"  -h, --help               this text\n", SPIN_US_DEFAULT);
}

/* Command-line settings. */
struct opts {
	const char *spec;
	const char *mnt;
	const char *stats;
	const char *trace;
	double scale;
	unsigned long spin_us;
	unsigned long idle_min_us;
	int sector_size;	/* print the logical block size, exit */
};

enum { OPT_STATS = 256, OPT_TRACE, OPT_SPIN, OPT_SECTOR, OPT_IDLE };

/* Parse argv into o.  Returns 0, or 2 after printing why. */
static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "simulate", optional_argument, NULL, 'S' },
		{ "scale", required_argument, NULL, 'x' },
		{ "stats", required_argument, NULL, OPT_STATS },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "spin-us", required_argument, NULL, OPT_SPIN },
		{ "idle-min-us", required_argument, NULL, OPT_IDLE },
		{ "sector-size", no_argument, NULL, OPT_SECTOR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->scale = 1;
	o->spin_us = SPIN_US_DEFAULT;
	while ((c = getopt_long(argc, argv, "S::x:h", lo, NULL)) != -1) {
		switch (c) {
		case 'S':
			o->spec = optarg;
			break;
		case 'x':
			o->scale = strtod(optarg, &end);
			if (*end || !(o->scale > 0) || o->scale > 1000) {
				fprintf(stderr, "fusecard: bad --scale '%s'"
					" (0 < factor <= 1000)\n", optarg);
				return 2;
			}
			break;
		case OPT_SPIN:
			o->spin_us = strtoul(optarg, &end, 10);
			if (*end || !*optarg || o->spin_us > 1000000) {
				fprintf(stderr, "fusecard: bad --spin-us '%s'"
					" (0 to 1000000)\n", optarg);
				return 2;
			}
			break;
		case OPT_IDLE:
			o->idle_min_us = strtoul(optarg, &end, 10);
			if (*end || !*optarg || o->idle_min_us > 10000000) {
				fprintf(stderr, "fusecard: bad --idle-min-us"
					" '%s' (0 to 10000000)\n", optarg);
				return 2;
			}
			break;
		case OPT_STATS:
			o->stats = optarg;
			break;
		case OPT_TRACE:
			o->trace = optarg;
			break;
		case OPT_SECTOR:
			o->sector_size = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return 2;
		}
	}
	if (o->sector_size && optind == argc)
		return 0;
	if (optind != argc - 1) {
		fprintf(stderr, "fusecard: need exactly one mount point\n");
		return 2;
	}
	o->mnt = argv[optind];
	return 0;
}

/* Build the card of spec (NULL: the default card).  0, or 2 with why. */
static int open_card(const char *spec)
{
	struct sim_params p;
	char why[256];
	int ret;

	sim_params_default(&p);
	if (spec && *spec && sim_parse_spec(&p, spec, why, sizeof(why))) {
		fprintf(stderr, "fusecard: --simulate: %s\n", why);
		return 2;
	}
	ret = sim_open(&fc.card, &p);
	if (ret) {
		fprintf(stderr, "fusecard: simulated card: %s\n",
			strerror(-ret));
		return 2;
	}
	return 0;
}

/* Mount, serve requests one at a time until unmounted or signalled. */
static int serve(const char *mnt)
{
	char *fargv[] = { "fusecard", "-o", "fsname=fusecard,subtype=fusecard",
			  NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, fargv);
	struct fuse *f;
	int ret = 1;

	f = fuse_new(&args, &fc_ops, sizeof(fc_ops), NULL);
	/* fuse_new() may have copied the arguments to add its own */
	fuse_opt_free_args(&args);
	if (!f)
		return 1;
	if (fuse_mount(f, mnt))
		goto out_destroy;
	if (fuse_set_signal_handlers(fuse_get_session(f)))
		goto out_unmount;
	ret = fuse_loop(f) ? 1 : 0;
	fuse_remove_signal_handlers(fuse_get_session(f));
out_unmount:
	fuse_unmount(f);
out_destroy:
	fuse_destroy(f);
	return ret;
}

/* Write the totals to path.  0, or 1 after printing why. */
static int write_stats(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "fusecard: %s: %s\n", path, strerror(errno));
		return 1;
	}
	print_stats(f);
	if (fclose(f)) {
		fprintf(stderr, "fusecard: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret;
	fc.scale = o.scale;
	fc.spin_ns = o.spin_us * 1000ULL;
	fc.idle_min_ns = o.idle_min_us * 1000ULL;
	ret = open_card(o.spec);
	if (ret)
		return ret;
	if (o.sector_size) {
		printf("%u\n", fc.card->logical_block_size);
		dev_close(fc.card);
		return 0;
	}
	if (o.trace) {
		fc.trace = fopen(o.trace, "w");
		if (!fc.trace) {
			fprintf(stderr, "fusecard: %s: %s\n", o.trace,
				strerror(errno));
			dev_close(fc.card);
			return 2;
		}
	}
	/*
	 * Wake from the sleep as close to the asked time as the kernel can,
	 * and before ordinary tasks (as classic flashbench runs itself):
	 * on a busy machine a late wake-up adds to the card's cost.  Both
	 * are best effort.
	 */
	prctl(PR_SET_TIMERSLACK, 1UL);
	sched_setscheduler(0, SCHED_FIFO, &(struct sched_param){
		.sched_priority = 10 });
	ret = serve(o.mnt);
	if (o.stats && write_stats(o.stats))
		ret = 1;
	if (fc.trace && fclose(fc.trace))
		ret = 1;
	dev_close(fc.card);
	return ret;
}
