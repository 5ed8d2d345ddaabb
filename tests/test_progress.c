// SPDX-License-Identifier: GPL-2.0-only
/*
 * The progress line (output/progress.c) on a pseudo-terminal, and its
 * absence where the error stream is no terminal: the module alone on a
 * fake clock, then flashbench end to end.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "docread.h"
#include "flashbench.h"
#include "progplan.h"
#include "progress.h"
#include "util.h"

static uint64_t fake_ns;

static uint64_t fake_clock(void)
{
	return fake_ns;
}

/* What the terminal got so far (waits up to ms for the first byte). */
static void pty_drain(int master, char *buf, size_t len, int ms)
{
	struct pollfd pfd = { .fd = master, .events = POLLIN };
	size_t n = 0;

	buf[0] = '\0';
	while (n < len - 1 && poll(&pfd, 1, n ? 50 : ms) > 0) {
		ssize_t got = read(master, buf + n, len - 1 - n);

		if (got <= 0)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
}

START_TEST(test_progress_module)
{
	struct progress_seg segs[2] = {
		{ 100, 32768, "first" },
		{ 100, 32768, "second" },
	};
	char buf[4096];
	int master, slave;
	struct progress *p;
	FILE *tty, *mem, *out;
	char *memtext = NULL;
	size_t memlen = 0;

	ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	tty = fdopen(slave, "w");
	ck_assert_ptr_nonnull(tty);
	fake_ns = 1000;
	p = progress_new(tty, 0);
	ck_assert(progress_enabled(p));
	progress_set_clock(p, fake_clock);
	ck_assert_int_eq(progress_start(p, "--test", segs, 2), 0);
	/* the first two seconds: nothing */
	fake_ns += 1900000000ULL;
	progress_step(p, 10);
	pty_drain(master, buf, sizeof(buf), 100);
	ck_assert_str_eq(buf, "");
	/* then a line: a quarter done in 2 s, so 6 s left */
	fake_ns += 100000000ULL;
	progress_step(p, 50);
	pty_drain(master, buf, sizeof(buf), 1000);
	ck_assert_msg(strstr(buf, "flashbench: --test: first, 25%, 0:06 left"),
		      "got '%s'", buf);
	ck_assert(buf[0] == '\r' && strstr(buf, "\033[K"));
	ck_assert(!strchr(buf, '\n'));
	/* not redrawn within 200 ms */
	fake_ns += 100000000ULL;
	progress_step(p, 60);
	pty_drain(master, buf, sizeof(buf), 100);
	ck_assert_str_eq(buf, "");
	/* three quarters at 4 s: the second step, 2 s left (rounded up) */
	fake_ns += 1900000000ULL;
	progress_step(p, 150);
	pty_drain(master, buf, sizeof(buf), 1000);
	ck_assert_msg(strstr(buf, "second, 75%, 0:02 left"), "got '%s'", buf);
	/* a results line on the same terminal clears the line first */
	out = progress_wrap(p, tty);
	ck_assert_ptr_ne(out, tty);
	fprintf(out, "4MiB    8.79M/s \n");
	pty_drain(master, buf, sizeof(buf), 1000);
	ck_assert_msg(!strncmp(buf, "\r\033[K4MiB    8.79M/s ", 19),
		      "got '%s'", buf);
	ck_assert_ptr_eq(progress_unwrap(p, out), tty);
	/* done: the line is cleared when it was shown */
	fake_ns += 300000000ULL;
	progress_step(p, 190);
	progress_done(p);
	pty_drain(master, buf, sizeof(buf), 1000);
	ck_assert_msg(strlen(buf) > 8 &&
		      !strcmp(buf + strlen(buf) - 4, "\r\033[K"),
		      "got '%s'", buf);
	progress_free(p);

	/* quiet, or not a terminal: never a byte */
	fake_ns = 0;
	p = progress_new(tty, 1);
	ck_assert(!progress_enabled(p));
	progress_set_clock(p, fake_clock);
	progress_start(p, "--test", segs, 2);
	fake_ns = 5000000000ULL;
	progress_step(p, 100);
	progress_done(p);
	progress_free(p);
	pty_drain(master, buf, sizeof(buf), 200);
	ck_assert_str_eq(buf, "");
	mem = open_memstream(&memtext, &memlen);
	fake_ns = 0;
	p = progress_new(mem, 0);
	ck_assert(!progress_enabled(p));
	progress_set_clock(p, fake_clock);
	progress_start(p, "--test", segs, 2);
	fake_ns = 5000000000ULL;
	progress_step(p, 100);
	progress_done(p);
	progress_free(p);
	fclose(mem);
	ck_assert_uint_eq(memlen, 0);
	free(memtext);
	fclose(tty);
	close(master);
}
END_TEST

/* A test of unknown length shows its step and the time elapsed. */
/*
 * On a narrow terminal the line keeps its numbers and cuts the words
 * before them (issue 9 item 20): first "flashbench: ", then the step.
 */
START_TEST(test_progress_narrow)
{
	struct progress_seg segs[1] = {
		{ 100, 32768, "precondition 16KiB" },
	};
	struct winsize ws = { .ws_row = 24, .ws_col = 30 };
	char buf[4096], *line;
	int master, slave;
	struct progress *p;
	FILE *tty;

	ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, &ws), 0);
	tty = fdopen(slave, "w");
	ck_assert_ptr_nonnull(tty);
	fake_ns = 1000;
	p = progress_new(tty, 0);
	progress_set_clock(p, fake_clock);
	ck_assert_int_eq(progress_start(p, "--auto", segs, 1), 0);
	fake_ns += 2000000000ULL;
	progress_step(p, 25);
	pty_drain(master, buf, sizeof(buf), 1000);
	/* "\r" LINE "\033[K": LINE fits in 29 columns, numbers whole */
	ck_assert_msg(buf[0] == '\r' && strstr(buf, "\033[K"), "got '%s'",
		      buf);
	line = buf + 1;
	*strstr(line, "\033[K") = '\0';
	ck_assert_msg(strlen(line) <= 29, "too wide: '%s'", line);
	ck_assert_str_eq(line, "--auto: preco, 25%, 0:06 left");
	progress_done(p);
	progress_free(p);
	fclose(tty);
	close(master);
}
END_TEST

START_TEST(test_progress_unknown_length)
{
	char buf[1024];
	int master, slave;
	struct progress *p;
	FILE *tty, *log;

	ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	tty = fdopen(slave, "w");
	fake_ns = 0;
	p = progress_new(tty, 0);
	progress_set_clock(p, fake_clock);
	progress_start(p, "--auto", NULL, 0);
	log = progress_log(p, NULL);
	fprintf(log, "auto: FAT area probe (writes)\n");
	fake_ns = 65000000000ULL;
	progress_step(p, 7);
	pty_drain(master, buf, sizeof(buf), 1000);
	ck_assert_msg(strstr(buf, "flashbench: --auto: FAT area probe (writes), 1:05 elapsed"),
		      "got '%s'", buf);
	ck_assert(!strchr(buf, '%'));
	ck_assert_ptr_null(progress_unwrap(p, log));
	progress_free(p);
	fclose(tty);
	close(master);
}
END_TEST

/* What a planned test is made of. */
START_TEST(test_progress_plan)
{
	struct device *dev = sim_card(NULL);
	struct bench_opts o;
	int master, slave;
	struct progress *p;
	FILE *tty;

	ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	tty = fdopen(slave, "w");
	bench_opts_default(&o);
	p = progress_new(tty, 0);
	/* planning reads nothing from the device */
	ck_assert_int_eq(progplan_start(p, &open_au_test, &o, dev), 0);
	ck_assert_int_eq(progplan_start(p, &align_test, &o, dev), 0);
	ck_assert_uint_eq(dev->io_count, 0);
	/* attached, the count follows the device; detached, its clock is back */
	{
		void *buf = dev_alloc_buf(4096);
		struct device *w;
		uint64_t t;

		w = progress_attach(p, dev);
		ck_assert_ptr_ne(w, dev);
		ck_assert_ptr_eq(w->inner, dev);
		ck_assert_int_eq(dev_read(w, buf, 4096, 0, &t), 0);
		ck_assert_uint_gt(t, 0);	/* the virtual clock still runs */
		ck_assert_uint_eq(dev->io_count, 1);
		/* a wrapper forwards untimed I/O: the clock stands still */
		dev_untimed(w, 1);
		ck_assert_int_eq(dev_read(w, buf, 4096, 0, &t), 0);
		ck_assert_uint_eq(t, 0);
		dev_untimed(w, 0);
		ck_assert_ptr_eq(progress_detach(p, w), dev);
		ck_assert_ptr_eq(progress_detach(p, dev), dev);
		dev_free_buf(buf);
	}
	/* a batch goes down as a batch: one access for two queued reads */
	{
		struct device *q = sim_card("noise=0,queue=2"), *w;
		void *buf = dev_alloc_buf(8192);
		struct dev_req r[2] = {
			{ 0, buf, 4096, 0 },
			{ 0, (char *)buf + 4096, 4096, 1 << 20 },
		};
		uint64_t t;

		w = progress_attach(p, q);
		ck_assert_ptr_eq(w->inner, q);
		ck_assert_int_eq(dev_batch(w, r, 2, &t), 0);
		ck_assert_uint_eq(t, 700000 + 2 * 163840);
		ck_assert_uint_eq(q->io_count, 2);
		ck_assert_ptr_eq(progress_detach(p, w), q);
		dev_free_buf(buf);
		dev_close(q);
	}
	progress_free(p);
	dev_close(dev);
	fclose(tty);
	close(master);
}
END_TEST

/* A virtual wall clock for the progress line: 10 ms per reading. */
static uint64_t progress_vclock_ns;

static uint64_t progress_vclock(void)
{
	progress_vclock_ns += 10000000;
	return progress_vclock_ns;
}

/*
 * Run the front end in a child process with stderr on a pseudo-terminal
 * (or a pipe when on_tty is 0) and the progress line on the virtual
 * clock above, so that the line shows however fast the machine is;
 * returns the exit status and what stderr got.
 */
static int run_on_pty(const char *const args[], int on_tty, char *err,
		      size_t len)
{
	char *argv[32];
	int master = -1, slave = -1, pfd[2], status, argc;
	size_t n = 0;
	char sink[4096];
	pid_t pid;

	argv[0] = (char *)"flashbench";
	for (argc = 1; argc < 31 && args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	argv[argc] = NULL;
	if (on_tty) {
		ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	} else {
		ck_assert_int_eq(pipe(pfd), 0);
		master = pfd[0];
		slave = pfd[1];
	}
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		FILE *out = fopen("/dev/null", "w");
		FILE *tty = fdopen(slave, "w");

		close(master);
		if (!out || !tty)
			_exit(127);
		flashbench_progress_clock = progress_vclock;
		status = flashbench_main(argc, argv, out, tty);
		fclose(tty);
		fclose(out);
		_exit(status);
	}
	close(slave);
	for (;;) {
		/* keep reading when err is full, so the child never blocks */
		ssize_t got = n < len - 1 ?
			read(master, err + n, len - 1 - n) :
			read(master, sink, sizeof(sink));

		if (got > 0) {
			n += n < len - 1 ? (size_t)got : 0;
			continue;
		}
		if (got < 0 && errno == EINTR)
			continue;
		break;	/* EOF, or EIO once the child closed the pty */
	}
	err[n] = '\0';
	close(master);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(test_progress_end_to_end)
{
	/*
	 * 2 rounds over 2^12 positions: 8192 reads, about 80 s on the
	 * virtual clock of run_on_pty (the line reads it at every call
	 * while 5 ms pass between readings), well past the progress line's
	 * 2 s delay, however fast the machine.
	 */
	char out[300], arg[320];
	const char *args[] = { "--simulate", "-s", "-b", "4K",
			       "--scatter-order=12", "-c", "2", arg, NULL, NULL };
	const char *quiet[] = { "--simulate", "-s", "-b", "4K",
				"--scatter-order=12", "-c", "2", arg, "-q",
				NULL };
	static char err[1 << 16];
	char *res;
	size_t len = 0;
	int status;

	snprintf(out, sizeof(out), "%s/progress.txt", work_dir);
	snprintf(arg, sizeof(arg), "-o%s", out);
	status = run_on_pty(args, 1, err, sizeof(err));
	res = read_all(out, &len);
	unlink(out);	/* nothing left behind, whatever fails below */
	ck_assert_int_eq(status, 0);
	ck_assert_msg(strstr(err, "\rflashbench: --scatter: round ") &&
		      strstr(err, "%, "), "no progress line: '%.300s'", err);
	ck_assert_msg(!strchr(err, '\n'), "more than one line: '%.300s'", err);
	ck_assert_msg(strlen(err) > 4 &&
		      !strcmp(err + strlen(err) - 4, "\r\033[K"),
		      "line not cleared: '%.300s'", err + strlen(err) -
		      (strlen(err) > 300 ? 300 : strlen(err)));
	/* never in the results */
	ck_assert_ptr_nonnull(res);
	ck_assert_uint_eq(count_lines(res, NULL), 1 << 12);
	ck_assert_ptr_null(strchr(res, '\r'));
	ck_assert_ptr_null(strchr(res, '\033'));
	free(res);
	/* -q, and stderr not a terminal: nothing */
	ck_assert_int_eq(run_on_pty(quiet, 1, err, sizeof(err)), 0);
	unlink(out);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(run_on_pty(args, 0, err, sizeof(err)), 0);
	unlink(out);
	ck_assert_str_eq(err, "");
}
END_TEST

/*
 * Every message on a terminal that shows the progress line starts on a
 * line of its own: after a newline, after the line was cleared
 * ("\r\033[K"), or as a redrawn line ("\r"); never glued to the end
 * of a progress line.  Returns the number of messages glued.
 */
static size_t glued_messages(const char *err)
{
	const char *p = err;
	size_t n = 0;

	while ((p = strstr(p, "flashbench: "))) {
		size_t i = (size_t)(p - err);

		if (i && err[i - 1] != '\n' && err[i - 1] != '\r' &&
		    !(i >= 4 && !strncmp(err + i - 4, "\r\033[K", 4)))
			n++;
		p++;
	}
	return n;
}

/* The file the front end opened, as a simulated card of its size. */
static struct device *sim_of_file(struct device *file)
{
	char spec[96];

	snprintf(spec, sizeof(spec), "readsig=0,size=%llu",
		 (unsigned long long)file->size_byte);
	dev_close(file);
	return sim_card(spec);
}

/*
 * --auto --destructive --preserve on a terminal, where the erase size
 * comes from writes (no read signature): the later steps put back what
 * the erase search wrote, which redraws the progress line, and only then
 * announce their own writes; each message still starts a line of its
 * own (issue 20 item 2).  The card is a simulated one behind a sparse
 * file, so that --preserve saves and restores.
 */
START_TEST(test_progress_auto_messages)
{
	char img[300], journal[300];
	const char *args[] = { "--auto", "--destructive", "--preserve",
			       "--journal", journal, img, NULL };
	static char err[1 << 18];
	int fd;

	snprintf(img, sizeof(img), "%s/card.img", work_dir);
	snprintf(journal, sizeof(journal), "%s/card.journal", work_dir);
	fd = open(img, O_CREAT | O_EXCL | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 1LL << 30), 0);
	close(fd);
	flashbench_open_hook = sim_of_file;
	fd = run_on_pty(args, 1, err, sizeof(err));
	flashbench_open_hook = NULL;
	unlink(img);
	ck_assert_msg(fd == 0, "status %d: %.2000s", fd, err);
	ck_assert_msg(strstr(err, "\rflashbench: --auto: "),
		      "no progress line: '%.300s'", err);
	ck_assert_msg(strstr(err, "will overwrite"), "no announcement");
	ck_assert_msg(glued_messages(err) == 0,
		      "%zu messages glued to the progress line: '%.2000s'",
		      glued_messages(err), err);
}
END_TEST

/*
 * -L's progress line shows its step, percent and time left, as the man
 * page promises (it said only "running, 0:02 elapsed").
 */
START_TEST(test_progress_class)
{
	const char *args[] = { "--simulate=size=1G", "-L", NULL };
	static char err[1 << 16];

	ck_assert_int_eq(run_on_pty(args, 1, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "\rflashbench: --class: random "),
		      "no step: '%.300s'", err);
	ck_assert_msg(strstr(err, " left\033[K"), "no time left: '%.300s'",
		      err);
	ck_assert_ptr_null(strstr(err, "running"));
	ck_assert_uint_eq(glued_messages(err), 0);
}
END_TEST

/*
 * -C's progress line too shows its step, percent and time left (it said
 * only "running, 0:02 elapsed").
 */
START_TEST(test_progress_capacity)
{
	const char *args[] = { "--simulate=size=8G", "-C", NULL };
	static char err[1 << 16];

	ck_assert_int_eq(run_on_pty(args, 1, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "\rflashbench: --capacity: flush"),
		      "no step: '%.300s'", err);
	ck_assert_msg(strstr(err, "%, "), "no percent: '%.300s'", err);
	ck_assert_msg(strstr(err, " left\033[K"), "no time left: '%.300s'",
		      err);
	ck_assert_ptr_null(strstr(err, "running"));
	ck_assert_uint_eq(glued_messages(err), 0);
}
END_TEST

Suite *progress_suite(void)
{
	Suite *s = suite_create("progress");
	TCase *tc;

	tc = tcase_create("progress");
	tcase_add_checked_fixture(tc, work_dir_setup, work_dir_teardown);
	tcase_add_test(tc, test_progress_module);
	tcase_add_test(tc, test_progress_narrow);
	tcase_add_test(tc, test_progress_unknown_length);
	tcase_add_test(tc, test_progress_plan);
	tcase_add_test(tc, test_progress_end_to_end);
	tcase_add_test(tc, test_progress_auto_messages);
	tcase_add_test(tc, test_progress_capacity);
	tcase_add_test(tc, test_progress_class);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	return s;
}
