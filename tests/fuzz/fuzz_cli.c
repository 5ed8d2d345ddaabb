// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the command line: flashbench_main() with argv
 * taken from the input, on simulated cards only.
 *
 * Input: one mode byte, then the arguments separated by newlines or NULs;
 * after the first pair of NULs, the content that --analyze reads.  Mode
 * bits: 0-1 pick the card, 2 puts --simulate=<card> first, 3 gives the
 * card 4096-byte logical blocks, 4 runs the same command line twice.
 *
 * Nothing real is touched: this object is linked against a copy of
 * flashbench.o whose dev_open(), quiet_system() and file calls
 * (fopen, open, stat, realpath, unlink, opendir) are renamed to the stand-ins
 * below, and copies of safety/'s objects (preserve.o and the files split
 * from it) whose file calls are (see the fuzz rules in the Makefile).
 * A DEVICE opens a
 * simulated card, files to read hold the input's tail, files to write
 * are /dev/null, stdin is /dev/null; --preserve journals are written to
 * one file in a private temporary directory and never linked, renamed
 * or removed, --restore reads the input's tail.  Arguments that would
 * choose another card (--si...) are dropped, so buffers stay small, and
 * every card's I/O calls are rationed (fuzz_util.h), so runs end quickly.
 *
 * Checked: the exit status is 0, 1 or 2; 2 comes with a "flashbench: "
 * line and without any I/O; 1 only when the harness made the card or the
 * open fail or gave --restore a journal (so a test that sends the card
 * an I/O it refuses is caught);
 * any failure says something on stderr; run twice, flashbench_main()
 * prints the same (the simulated card is deterministic, so a difference
 * is state left over from the first run, or uninitialised memory).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockdev.h"
#include "flashbench.h"
#include "fuzz_util.h"
#include "sim.h"

/* Arguments taken from one input, at most. */
#define CLI_MAX_ARGS 48

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The stand-ins flashbench.o is linked against. */
int fuzz_dev_open(struct device **devp, const char *path, unsigned int flags,
		  char *holder, size_t holder_len);
void fuzz_quiet_system(FILE *log);
FILE *fuzz_fopen(const char *path, const char *mode);
FILE *fuzz_fopen64(const char *path, const char *mode);
int fuzz_open(const char *path, int flags, ...);
int fuzz_open64(const char *path, int flags, ...);
int fuzz_stat(const char *path, struct stat *st);
DIR *fuzz_opendir(const char *path);
int fuzz_stat64(const char *path, struct stat *st);
char *fuzz_realpath(const char *path, char *resolved);
int fuzz_unlink(const char *path);
/* The stand-ins safety/'s objects are linked against. */
int fuzz_preserve_open(const char *path, int flags, ...);
int fuzz_preserve_open64(const char *path, int flags, ...);
int fuzz_preserve_link(const char *from, const char *to);
int fuzz_preserve_rename(const char *from, const char *to);
int fuzz_preserve_unlink(const char *path);
int fuzz_preserve_access(const char *path, int mode);
int fuzz_preserve_stat(const char *path, struct stat *st);
int fuzz_preserve_stat64(const char *path, struct stat *st);
int fuzz_preserve_lstat(const char *path, struct stat *st);
int fuzz_preserve_lstat64(const char *path, struct stat *st);
FILE *fuzz_preserve_fopen(const char *path, const char *mode);
FILE *fuzz_preserve_fopen64(const char *path, const char *mode);

static const char *const cards[] = {
	"size=64M,erase=1M",
	"size=256M",
	"size=32M,erase=512K,page=8K,open=2",
	"size=96M,erase=3M,page=16K,fat=2",
};

/* What the current input set up for the stand-ins. */
static struct {
	const char *card;	/* SPEC of the card a DEVICE opens */
	int lbs_4k;		/* give cards 4096-byte logical blocks */
	const char *file;	/* what --analyze reads */
	size_t file_len;
	unsigned int refused;	/* opens the stand-in refused */
	int journal_read;	/* --restore read a journal */
} cur;

/* The private directory of the journal stand-ins, and its two files. */
static char tmp_dir[64], tmp_journal[80], tmp_restore[80];

int fuzz_dev_open(struct device **devp, const char *path, unsigned int flags,
		  char *holder, size_t holder_len)
{
	struct sim_params p;
	char why[256];

	*devp = NULL;
	if (holder_len)
		holder[0] = '\0';
	if (!path[0] || strstr(path, "missing")) {
		cur.refused++;
		return -ENOENT;
	}
	if (flags & DEV_EXCL && strstr(path, "busy")) {
		snprintf(holder, holder_len, "%s is mounted on /mnt/x", path);
		cur.refused++;
		return -EBUSY;
	}
	if (flags & DEV_WRITE && strstr(path, "ro")) {
		cur.refused++;
		return -EROFS;
	}
	sim_params_default(&p);
	if (sim_parse_spec(&p, cur.card, why, sizeof(why)))
		fuzz_fail("bad card '%s': %s", cur.card, why);
	return sim_open(devp, &p);
}

void fuzz_quiet_system(FILE *log)
{
	if (log)
		fputs("flashbench: (fuzz) system left as it is\n", log);
}

FILE *fuzz_fopen(const char *path, const char *mode)
{
	if (!path[0] || strstr(path, "missing")) {
		errno = ENOENT;
		return NULL;
	}
	if (mode[0] == 'r' && cur.file_len)
		return fmemopen((void *)cur.file, cur.file_len, "r");
	return fopen("/dev/null", mode[0] == 'r' ? "r" : "w");
}

/* What fopen() is with _FILE_OFFSET_BITS=64 on glibc. */
FILE *fuzz_fopen64(const char *path, const char *mode)
{
	return fuzz_fopen(path, mode);
}

/* Output files (-o, --plot) are /dev/null. */
int fuzz_open(const char *path, int flags, ...)
{
	if (!path[0] || strstr(path, "missing")) {
		errno = ENOENT;
		return -1;
	}
	(void)flags;
	return open("/dev/null", O_WRONLY | O_CLOEXEC);
}

int fuzz_open64(const char *path, int flags, ...)
{
	return fuzz_open(path, flags);
}

/*
 * What the front end's paths name: "exists" a regular file, "blk" a
 * block device (one inode each: two such paths are the same file), the
 * rest nothing.
 */
int fuzz_stat(const char *path, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	if (strstr(path, "blk")) {
		st->st_mode = S_IFBLK | 0600;
		st->st_ino = 2;
		return 0;
	}
	if (strstr(path, "exists")) {
		st->st_mode = S_IFREG | 0600;
		st->st_ino = 3;
		return 0;
	}
	errno = ENOENT;
	return -1;
}

int fuzz_stat64(const char *path, struct stat *st)
{
	return fuzz_stat(path, st);
}

/* --survey's directories: none can be read (stat names none either). */
DIR *fuzz_opendir(const char *path)
{
	(void)path;
	errno = ENOENT;
	return NULL;
}

/* Directories resolve to themselves. */
char *fuzz_realpath(const char *path, char *resolved)
{
	if (!resolved)
		return strdup(path);
	snprintf(resolved, PATH_MAX, "%s", path);
	return resolved;
}

int fuzz_unlink(const char *path)
{
	(void)path;
	return 0;
}

/* Opens: directories are the private one, files the journal file. */
static int preserve_open(const char *path, int flags)
{
	if (strstr(path, "missing")) {
		errno = ENOENT;
		return -1;
	}
	if (flags & O_DIRECTORY)
		return open(tmp_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if ((flags & O_ACCMODE) == O_RDONLY)
		return open(tmp_journal, O_RDONLY | O_CREAT | O_CLOEXEC, 0600);
	return open(tmp_journal, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0600);
}

int fuzz_preserve_open(const char *path, int flags, ...)
{
	return preserve_open(path, flags);
}

int fuzz_preserve_open64(const char *path, int flags, ...)
{
	return preserve_open(path, flags);
}

/* link, rename and unlink pretend: nothing real is named or removed. */
int fuzz_preserve_link(const char *from, const char *to)
{
	(void)from;
	if (strstr(to, "exists")) {
		cur.refused++;
		errno = EEXIST;
		return -1;
	}
	return 0;
}

int fuzz_preserve_rename(const char *from, const char *to)
{
	(void)from;
	(void)to;
	return 0;
}

int fuzz_preserve_unlink(const char *path)
{
	(void)path;
	return 0;
}

/*
 * Only names with "exists" in them exist (as regular files); flashbench
 * may well refuse to go on then.
 */
int fuzz_preserve_access(const char *path, int mode)
{
	(void)mode;
	if (strstr(path, "exists")) {
		cur.refused++;
		return 0;
	}
	errno = ENOENT;
	return -1;
}

int fuzz_preserve_stat(const char *path, struct stat *st)
{
	if (!strstr(path, "exists")) {
		errno = ENOENT;
		return -1;
	}
	cur.refused++;
	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFREG | 0600;
	return 0;
}

int fuzz_preserve_stat64(const char *path, struct stat *st)
{
	return fuzz_preserve_stat(path, st);
}

int fuzz_preserve_lstat(const char *path, struct stat *st)
{
	return fuzz_preserve_stat(path, st);
}

int fuzz_preserve_lstat64(const char *path, struct stat *st)
{
	return fuzz_preserve_stat(path, st);
}

/* A journal to restore: the input's tail, in a regular file. */
FILE *fuzz_preserve_fopen(const char *path, const char *mode)
{
	FILE *f;

	(void)mode;
	cur.journal_read = 1;
	if (strstr(path, "missing")) {
		errno = ENOENT;
		return NULL;
	}
	f = fopen(tmp_restore, "w");
	if (!f)
		fuzz_fail("cannot write %s", tmp_restore);
	if (cur.file_len && fwrite(cur.file, cur.file_len, 1, f) != 1)
		fuzz_fail("cannot write %s", tmp_restore);
	if (fclose(f))
		fuzz_fail("cannot write %s", tmp_restore);
	return fopen(tmp_restore, "rbe");
}

FILE *fuzz_preserve_fopen64(const char *path, const char *mode)
{
	return fuzz_preserve_fopen(path, mode);
}

/* Every device flashbench opens is rationed, with 4K blocks if asked. */
static struct device *open_hook(struct device *dev)
{
	if (cur.lbs_4k)
		dev->logical_block_size = 4096;
	fuzz_budget(dev, FUZZ_MAX_IO);
	return dev;
}

static void remove_tmp(void)
{
	unlink(tmp_journal);
	unlink(tmp_restore);
	rmdir(tmp_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!freopen("/dev/null", "r", stdin))
		fuzz_fail("cannot point stdin at /dev/null");
	/* a record's start time is pinned: two runs of one input agree */
	if (setenv("SOURCE_DATE_EPOCH", "1700000000", 1))
		fuzz_fail("cannot set SOURCE_DATE_EPOCH");
	snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/fuzz_cli.XXXXXX");
	if (!mkdtemp(tmp_dir))
		fuzz_fail("cannot make a temporary directory");
	snprintf(tmp_journal, sizeof(tmp_journal), "%s/journal", tmp_dir);
	snprintf(tmp_restore, sizeof(tmp_restore), "%s/restore", tmp_dir);
	atexit(remove_tmp);
	flashbench_open_hook = open_hook;
	return 0;
}

/* What one call of flashbench_main() printed and returned. */
struct run {
	int ret;
	char *out, *err;	/* malloc'd by open_memstream() */
	size_t out_len, err_len;
};

/* Run flashbench_main() on a copy of argv (getopt permutes it). */
static int run(int argc, char *const *argv, struct run *r)
{
	char *args[CLI_MAX_ARGS + 3];
	FILE *out, *err;

	memcpy(args, argv, (size_t)(argc + 1) * sizeof(*args));
	memset(r, 0, sizeof(*r));
	out = open_memstream(&r->out, &r->out_len);
	if (!out)
		return -1;
	err = open_memstream(&r->err, &r->err_len);
	if (!err) {
		fclose(out);
		free(r->out);
		return -1;
	}
	r->ret = flashbench_main(argc, args, out, err);
	fclose(out);
	fclose(err);
	return 0;
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[CLI_MAX_ARGS + 3], *text, *p, *end;
	char simarg[64];
	size_t text_len;
	uint64_t io, refused;
	struct run r, again;
	int argc = 0;
	uint8_t mode;

	if (!size)
		return 0;
	mode = data[0];
	data++;
	size--;
	memset(&cur, 0, sizeof(cur));
	cur.card = cards[mode & 3];
	cur.lbs_4k = !!(mode & 8);
	/* the arguments end at the first pair of NULs; the file follows */
	text_len = size;
	for (p = (char *)data; p + 1 < (char *)data + size; p++)
		if (!p[0] && !p[1]) {
			text_len = (size_t)(p - (char *)data);
			cur.file = p + 2;
			cur.file_len = size - text_len - 2;
			break;
		}
	text = malloc(text_len + 1);
	if (!text)
		return 0;
	memcpy(text, data, text_len);
	text[text_len] = '\0';

	argv[argc++] = "flashbench";
	if (mode & 4) {
		snprintf(simarg, sizeof(simarg), "--simulate=%s", cur.card);
		argv[argc++] = simarg;
	}
	for (p = text; p < text + text_len && argc < CLI_MAX_ARGS + 2;
	     p = end + 1) {
		end = p + strcspn(p, "\n");
		if (end > text + text_len)
			end = text + text_len;
		*end = '\0';
		if (!*p || !strncmp(p, "--si", 4))
			continue;
		argv[argc++] = p;
	}
	argv[argc] = NULL;

	io = flashbench_io_calls;
	refused = fuzz_budget_refused;
	if (run(argc, argv, &r))
		goto out_free_text;
	if (r.ret < 0 || r.ret > 2)
		fuzz_fail("exit status %d", r.ret);
	if (r.ret && !r.err_len)
		fuzz_fail("exit status %d and nothing on stderr", r.ret);
	if (r.ret == 2 && strncmp(r.err, "flashbench: ", 12))
		fuzz_fail("usage error without a 'flashbench: ' line: %s",
			  r.err);
	if (r.ret == 2 && flashbench_io_calls != io)
		fuzz_fail("usage error after %llu I/O calls: %s",
			  (unsigned long long)(flashbench_io_calls - io),
			  r.err);
	if (r.ret == 1 && fuzz_budget_refused == refused && !cur.refused &&
	    !cur.journal_read)
		fuzz_fail("exit status 1 on a card that refused nothing: %s",
			  r.err);
	if (mode & 16 && !run(argc, argv, &again)) {
		if (again.ret != r.ret || again.out_len != r.out_len ||
		    again.err_len != r.err_len ||
		    memcmp(again.out, r.out, r.out_len) ||
		    memcmp(again.err, r.err, r.err_len))
			fuzz_fail("a second run differs: status %d/%d\n"
				  "--- out\n%s--- again\n%s--- err\n%s"
				  "--- again\n%s", r.ret, again.ret, r.out,
				  again.out, r.err, again.err);
		run_free(&again);
	}
	run_free(&r);
out_free_text:
	free(text);
	return 0;
}
