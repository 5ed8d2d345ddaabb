// SPDX-License-Identifier: GPL-2.0-only
/*
 * --survey FILE...: read records (files, or the *.json files of a
 * directory), one row per card (output/surveyrow.c, output/survey.c).
 * A file that is not a record is named on stderr with why and left out;
 * the table of the others is printed and the exit status is then
 * EXIT_USAGE, so that a script notices.  "-" reads a record from standard input; a file named
 * twice (or met again in a directory) is read once.  No device is
 * opened; -o writes the table to a file that is none of the records.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "jsonread.h"
#include "rechead.h"
#include "survey.h"
#include "wrap.h"

/* The largest record read (an --auto record is some 100 KiB). */
#define SURVEY_MAX_BYTE	(16u << 20)

/* A file read: its device and inode. */
struct survey_id {
	dev_t dev;
	ino_t ino;
};

/* The rows read so far, and the files they came from. */
struct survey_set {
	struct survey_row *rows;
	size_t n, cap;
	unsigned int bad;	/* files left out */
	struct survey_id *ids;	/* every file read */
	size_t nids;
};

/* Nonzero if the file of st was read already; else it is noted as read. */
static int seen_before(struct survey_set *s, const struct stat *st)
{
	struct survey_id *t;
	size_t i;

	for (i = 0; i < s->nids; i++)
		if (s->ids[i].dev == st->st_dev && s->ids[i].ino == st->st_ino)
			return 1;
	t = realloc(s->ids, (s->nids + 1) * sizeof(*t));
	if (t) {
		s->ids = t;
		s->ids[s->nids].dev = st->st_dev;
		s->ids[s->nids++].ino = st->st_ino;
	}
	return 0;
}

/* Read all of f (at most SURVEY_MAX_BYTE); 0 or -errno. */
static int read_all(FILE *f, char **text, size_t *len)
{
	size_t cap = 65536;
	char *buf = malloc(cap), *p;

	*len = 0;
	while (buf) {
		size_t n = fread(buf + *len, 1, cap - *len, f);

		*len += n;
		if (ferror(f)) {
			free(buf);
			return -EIO;
		}
		if (*len < cap)
			break;
		if (cap > SURVEY_MAX_BYTE) {
			free(buf);
			return -EFBIG;
		}
		cap *= 2;
		p = realloc(buf, cap);
		if (!p)
			free(buf);
		buf = p;
	}
	if (!buf)
		return -ENOMEM;
	*text = buf;
	return 0;
}

/* Warn that path is left out, and why. */
static void left_out(struct cli *c, struct survey_set *s, const char *path,
		     const char *why)
{
	/* "PATH:LINE:COL: what" as --analyze words it, or "PATH: what" */
	wrap_printf(c->err, "flashbench:   ", "flashbench: %s:%s%s\n", path,
		    *why >= '0' && *why <= '9' ? "" : " ", why);
	s->bad++;
}

/* The row of the record at path, into s. */
static void survey_file(struct cli *c, struct survey_set *s,
			const char *path)
{
	struct survey_row *row;
	struct jr_value *doc;
	char why[JR_ERR_LEN + 160];
	struct stat st;
	size_t len;
	char *text;
	FILE *f;
	int ret;

	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f)
		return left_out(c, s, path, strerror(errno));
	if (fstat(fileno(f), &st))
		memset(&st, 0, sizeof(st));
	if (f != stdin && S_ISREG(st.st_mode) && seen_before(s, &st)) {
		fclose(f);
		return;
	}
	ret = S_ISDIR(st.st_mode) ? -EISDIR : read_all(f, &text, &len);
	if (f != stdin)
		fclose(f);
	if (ret)
		return left_out(c, s, path, strerror(-ret));
	ret = record_parse(text, len, &doc, why, sizeof(why));
	free(text);
	if (ret)
		return left_out(c, s, path, why);
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct survey_row *r = realloc(s->rows, cap * sizeof(*r));

		if (!r) {
			jr_free(doc);
			return left_out(c, s, path, strerror(ENOMEM));
		}
		s->rows = r;
		s->cap = cap;
	}
	row = &s->rows[s->n];
	memset(row, 0, sizeof(*row));
	snprintf(row->record, sizeof(row->record), "%s",
		 strcmp(path, "-") ? path : "standard input");
	row->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 +
			st.st_mtim.tv_nsec;
	ret = survey_row_from(doc, row, why, sizeof(why));
	jr_free(doc);
	if (ret)
		return left_out(c, s, path, why);
	s->n++;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Nonzero for "x.json" (not hidden). */
static int is_record_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 5 && !strcmp(name + n - 5, ".json");
}

/* The *.json files of a directory, by name (not its subdirectories). */
static void survey_dir(struct cli *c, struct survey_set *s, const char *dir)
{
	char **names = NULL, path[PATH_MAX];
	size_t n = 0, i;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return left_out(c, s, dir, strerror(errno));
	while ((e = readdir(d))) {
		char **t;

		if (!is_record_name(e->d_name))
			continue;
		t = realloc(names, (n + 1) * sizeof(*names));
		if (!t)
			break;
		names = t;
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof(*names), name_cmp);
	if (!n)
		left_out(c, s, dir, "no *.json record in it");
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s%s%s", dir,
			 dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
		survey_file(c, s, path);
		free(names[i]);
	}
	free(names);
}

/* -o's file, refused where it is one of the records read. */
static int open_table(struct cli *c, const struct survey_set *s, FILE *out,
		      FILE **res)
{
	struct stat st;

	*res = out;
	if (!c->out_path)
		return 0;
	if (!stat(c->out_path, &st))
		for (size_t i = 0; i < s->nids; i++)
			if (s->ids[i].dev == st.st_dev &&
			    s->ids[i].ino == st.st_ino)
				return usage_error(c->err,
						   "invalid --out '%s': a record --survey reads",
						   c->out_path);
	return open_outputs(c, out, res);
}

int run_survey(struct cli *c, FILE *out)
{
	struct survey_set s = { NULL, 0, 0, 0, NULL, 0 };
	FILE *res = out;
	enum survey_format fmt = c->json ? SURVEY_JSON :
				 c->csv ? SURVEY_CSV :
				 c->markdown ? SURVEY_MARKDOWN : SURVEY_TEXT;
	struct stat st;
	size_t i;
	int ret;

	for (i = 0; i < c->files_nr; i++) {
		if (!stat(c->files[i], &st) && S_ISDIR(st.st_mode))
			survey_dir(c, &s, c->files[i]);
		else
			survey_file(c, &s, c->files[i]);
	}
	s.n = survey_merge(s.rows, s.n);
	ret = s.n || !s.bad ? open_table(c, &s, out, &res) : 0;
	if (!ret && (s.n || !s.bad))
		survey_print(res, s.rows, s.n, fmt);
	free(s.rows);
	free(s.ids);
	if (ret)
		return ret;
	if (s.bad)
		fprintf(c->err, "flashbench: --survey: %u file%s left out\n",
			s.bad, s.bad == 1 ? "" : "s");
	ret = finish_output(c, res, res != out);
	return s.bad ? EXIT_USAGE : ret;
}
