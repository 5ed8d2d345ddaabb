// SPDX-License-Identifier: GPL-2.0-only
/*
 * The front end's output files: -o and --plot are opened before any I/O
 * but emptied only once nothing can refuse the command line any more,
 * the chart is drawn in memory and written whole, and every write error
 * is told with its errno; and the progress line laid over them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "cli.h"
#include "flashbench.h"
#include "format.h"
#include "progress.h"

/* The tests' clock for the progress line (flashbench.h); NULL in use. */
uint64_t (*flashbench_progress_clock)(void);

/* ---- output files ---- */

/*
 * Open an output file without truncating it yet: if something is refused
 * before the results are written, an existing file must stay as it was.
 * *created says whether the file was made now (and must go again if we
 * give up).  Returns the stream, or NULL with errno set.
 */
static FILE *open_output(const char *path, int *created)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	FILE *f;
	int e;

	*created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (f)
		return f;
	e = errno;
	close(fd);
	if (*created)
		unlink(path);
	errno = e;
	return NULL;
}

/* Give up an output of open_output(): close it, remove it if ours. */
static void drop_output(FILE *f, const char *path, int created)
{
	fclose(f);
	if (created)
		unlink(path);
}

/* Empty an output file now that results go to it; 0 or -errno. */
static int start_output(FILE *f)
{
	struct stat st;

	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode))
		return 0;	/* /dev/null, a pipe: nothing to empty */
	return ftruncate(fileno(f), 0) ? -errno : 0;
}

/* Empty f, opened at path; 0 or -errno, also told on the error stream. */
static int empty_output(const struct cli *c, FILE *f, const char *path)
{
	int ret = start_output(f);

	if (ret)
		fprintf(c->err, "flashbench: cannot empty %s: %s\n", path,
			strerror(-ret));
	return ret;
}

/* Keep the first error of a plot function. */
void plot_note(struct plot_out *p, int ret)
{
	if (p && !p->ret)
		p->ret = ret;
}

/* The --plot file for messages. */
static const char *plot_name(const struct cli *c)
{
	return strcmp(c->plot_path, "-") ? c->plot_path : "standard output";
}

/*
 * Open --plot, not emptied yet ("-": out, when the results go to -o
 * FILE); returns 0 or an exit status.
 */
static int plot_open(struct cli *c, FILE *out)
{
	struct plot_out *p;
	int to_out;

	if (!c->plot_path)
		return 0;
	to_out = !strcmp(c->plot_path, "-");	/* -o FILE: check_args() */
	p = calloc(1, sizeof(*p));
	if (p)
		p->f = open_memstream(&p->buf, &p->len);
	if (!p || !p->f) {
		free(p);
		fprintf(c->err, "flashbench: --plot: %s\n", strerror(ENOMEM));
		return EXIT_DEVICE;
	}
	p->dst = to_out ? out : open_output(c->plot_path, &p->dst_created);
	p->dst_ours = !to_out;
	if (!p->dst) {
		int e = errno;

		fclose(p->f);
		free(p->buf);
		free(p);
		return usage_error(c->err, "invalid --plot '%s': %s",
				   c->plot_path, strerror(e));
	}
	c->run.plot = p;
	return 0;
}

/* Give up the --plot file of plot_open(), drawing nothing. */
static void plot_drop(struct cli *c)
{
	struct plot_out *p = c->run.plot;

	if (!p)
		return;
	fclose(p->f);
	free(p->buf);
	if (p->dst_ours)
		drop_output(p->dst, c->plot_path, p->dst_created);
	free(p);
	c->run.plot = NULL;
}

/*
 * Open -o and --plot, both or neither, before any I/O and after every
 * check that can refuse the command line; only when both are open are
 * they emptied.  *res is the results stream.  Returns 0 or an exit
 * status.
 */
int open_outputs(struct cli *c, FILE *out, FILE **res)
{
	int ret;

	*res = out;
	if (c->out_path) {
		*res = open_output(c->out_path, &c->run.out_created);
		if (!*res)
			return usage_error(c->err, "invalid --out '%s': %s",
					   c->out_path, strerror(errno));
	}
	ret = plot_open(c, out);
	if (!ret && *res != out)
		ret = empty_output(c, *res, c->out_path);
	if (!ret && c->run.plot && c->run.plot->dst_ours)
		ret = empty_output(c, c->run.plot->dst, c->plot_path);
	if (!ret)
		return 0;
	plot_drop(c);
	if (*res != out)
		drop_output(*res, c->out_path, c->run.out_created);
	*res = out;
	return ret < 0 ? EXIT_DEVICE : ret;
}

/* Write the chart out and close the --plot file; 0 or EXIT_DEVICE. */
int plot_close(struct cli *c)
{
	struct plot_out *p = c->run.plot;
	int ret;

	if (!p)
		return 0;
	ret = fclose(p->f) == EOF && !p->ret ? -ENOMEM : p->ret;
	errno = EIO;	/* for a short write that leaves errno alone */
	if (!ret && (fwrite(p->buf, 1, p->len, p->dst) != p->len ||
		     fflush(p->dst) == EOF))
		ret = -errno;
	if (p->dst_ours && fclose(p->dst) == EOF && !ret)
		ret = -errno;
	free(p->buf);
	free(p);
	c->run.plot = NULL;
	if (!ret)
		return 0;
	fprintf(c->err, "flashbench: cannot write the plot %s: %s\n",
		plot_name(c), strerror(-ret));
	return EXIT_DEVICE;
}

/* The align verdict of rows for the plot (NULL if it cannot be had). */
const struct align_verdict *plot_verdict(const struct align_row *rows,
					 size_t n,
					 struct align_verdict *v)
{
	return n && !analyze_align(rows, n, v) ? v : NULL;
}

/* Flush (and close, if it is ours) the results stream; 0 or EXIT_DEVICE. */
int finish_output(struct cli *c, FILE *f, int ours)
{
	const char *name = ours ? c->out_path : "standard output";
	int bad = ferror(f);
	int e = EIO;

	if (fflush(f) == EOF) {
		bad = 1;
		e = errno;
	}
	if (ours && fclose(f) == EOF && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad)
		return 0;
	fprintf(c->err, "flashbench: write error on %s: %s\n", name,
		strerror(e));
	return EXIT_DEVICE;
}

void progress_begin(struct cli *c, struct device **dev, FILE **res)
{
	c->run.prog = progress_new(c->err, c->quiet);
	if (flashbench_progress_clock)
		progress_set_clock(c->run.prog, flashbench_progress_clock);
	*dev = progress_attach(c->run.prog, *dev);
	*res = progress_wrap(c->run.prog, *res);
	/* every message, from here on, takes the progress line off first */
	c->err = progress_wrap(c->run.prog, c->err);
	c->o.log = c->err;
}

void progress_end(struct cli *c, struct device **dev, FILE **res)
{
	*res = progress_unwrap(c->run.prog, *res);
	c->err = progress_unwrap(c->run.prog, c->err);
	c->o.log = c->err;
	*dev = progress_detach(c->run.prog, *dev);
	progress_free(c->run.prog);
	c->run.prog = NULL;
}
