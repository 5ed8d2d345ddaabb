// SPDX-License-Identifier: GPL-2.0-only
/* Helpers shared by the test suites. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blockdev.h"
#include "fault.h"
#include "flashbench.h"
#include "jsonread.h"
#include "sim.h"
#include "util.h"
#include "wrap.h"

/* Append what fd has to offer to a growing buffer; 0 at EOF. */
static ssize_t drain(int fd, char **buf, size_t *len, size_t *cap)
{
	ssize_t n;

	if (*cap - *len < 4096) {
		*cap = *cap * 2 + 4096;
		*buf = realloc(*buf, *cap);
		if (!*buf)
			abort();
	}
	n = read(fd, *buf + *len, *cap - *len - 1);
	if (n > 0)
		*len += n;
	(*buf)[*len] = '\0';
	return n;
}

int run_cmd(char *const argv[], struct cmd_result *res)
{
	int out[2], err[2], status;
	size_t olen = 0, ocap = 0, elen = 0, ecap = 0;
	struct pollfd pfd[2];
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe(out) || pipe(err))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	pfd[0] = (struct pollfd){ .fd = out[0], .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = err[0], .events = POLLIN };
	drain(-1, &res->out, &olen, &ocap);
	drain(-1, &res->err, &elen, &ecap);
	while (pfd[0].fd >= 0 || pfd[1].fd >= 0) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents && drain(out[0], &res->out, &olen, &ocap) <= 0)
			pfd[0].fd = -1;
		if (pfd[1].revents && drain(err[0], &res->err, &elen, &ecap) <= 0)
			pfd[1].fd = -1;
	}
	close(out[0]);
	close(err[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	res->status = WIFEXITED(status) ? WEXITSTATUS(status)
					: 128 + WTERMSIG(status);
	json_doc_keep(res->out);
	return 0;
}

void cmd_result_free(struct cmd_result *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
}

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return v && *v ? v : fallback;
}

unsigned int test_stride(void)
{
	unsigned long n = strtoul(env_or("FB_TEST_STRIDE", "1"), NULL, 10);

	return n >= 1 && n <= 1000 ? (unsigned int)n : 1;
}

const char *flashbench_bin(void)
{
	return env_or("FLASHBENCH_BIN", "./flashbench");
}

const char *erase_bin(void)
{
	return env_or("ERASE_BIN", "./erase");
}

struct device *sim_card(const char *spec)
{
	struct sim_params p;
	struct device *dev = NULL;
	char err[256];

	sim_params_default(&p);
	if (spec && sim_parse_spec(&p, spec, err, sizeof(err)))
		ck_abort_msg("bad simulate spec '%s': %s", spec, err);
	ck_assert_int_eq(sim_open(&dev, &p), 0);
	return dev;
}

/* A deterministic generator for the sweep's card parameters. */
static uint64_t sweep_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void sweep_card(unsigned int i, struct sweep_card *c)
{
	static const unsigned int erase_kib[] = {
		1024, 2048, 4096, 8192, 16384, 3072, 6144, 12288,
	};
	static const unsigned int page_kib[] = { 4, 8, 16, 32, 64 };
	uint64_t s = 1000 + i;

	c->erase = (uint64_t)erase_kib[sweep_rand(&s) % 8] << 10;
	c->page = (uint64_t)page_kib[sweep_rand(&s) % 5] << 10;
	c->open = 1 + sweep_rand(&s) % 16;
	c->open_random = c->open > 1 ? 1 + sweep_rand(&s) % (c->open - 1) : 1;
	c->fat = sweep_rand(&s) % 5;
	/* real FAT areas lie at the card's start: from AU 0 to 4 here */
	c->fat_start = c->fat ? sweep_rand(&s) % 5 : 0;
	c->noise = (double)(sweep_rand(&s) % 11) / 2;	/* 0, 0.5 .. 5 */
	snprintf(c->spec, sizeof(c->spec),
		 "size=%llu,erase=%llu,page=%llu,open=%u,open_random=%u,fat=%u,fat_start=%u,noise=%g,seed=%u",
		 (unsigned long long)(c->erase * 2048),
		 (unsigned long long)c->erase, (unsigned long long)c->page,
		 c->open, c->open_random, c->fat, c->fat_start, c->noise, i + 1);
}

size_t count_str(const char *hay, const char *needle)
{
	size_t n = 0, len = strlen(needle);

	if (!len)
		return 0;
	while ((hay = strstr(hay, needle))) {
		n++;
		hay += len;
	}
	return n;
}

/*
 * A command to copy that names a simulated card: its --simulate=... spec
 * is one word as long as the user typed it, which no wrapping shortens.
 */
static int simulated_command(const char *line, size_t n)
{
	size_t lead = strspn(line, " ");

	return memmem(line, n, "--simulate=", 11) &&
	       (!strncmp(line + lead, "flashbench ", 11) ||
		!strncmp(line + lead, "sudo flashbench ", 16));
}

void check_width(const char *what, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n"), cols = wrap_cols(p, n);

		ck_assert_msg(cols <= WRAP_COLS || simulated_command(p, n),
			      "%s: %zu columns: %.*s", what, cols, (int)n, p);
		p += n + (p[n] == '\n');
	}
}

char *unwrap_err(char *s)
{
	static const char cont[] = "\nflashbench:   ";
	char *p = s;

	while ((p = strstr(p, cont))) {
		*p = ' ';
		memmove(p + 1, p + sizeof(cont) - 1,
			strlen(p + sizeof(cont) - 1) + 1);
	}
	return s;
}

char *unwrap_text(char *s)
{
	static const char cont[] = "\n    ";
	char *p;

	while ((p = strstr(s, cont))) {
		*p = ' ';
		memmove(p + 1, p + sizeof(cont) - 1,
			strlen(p + sizeof(cont) - 1) + 1);
	}
	return s;
}

size_t extcsd_dump(const char *name, char *buf, size_t len)
{
	char path[256];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "tests/data/extcsd/%s/ext_csd", name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot read %s", path);
	n = fread(buf, 1, len, f);
	fclose(f);
	return n;
}

/* Length of the well-formed UTF-8 character at p (RFC 3629), 0 if none. */
static size_t utf8_seq(const unsigned char *p)
{
	unsigned int c = p[0], n, i, cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

const char *utf8_invalid(const char *text)
{
	const unsigned char *p = (const unsigned char *)text;

	while (*p) {
		size_t n = utf8_seq(p);

		if (!n)
			return (const char *)p;
		p += n;
	}
	return NULL;
}

/*
 * A strict JSON checker that can also fetch one value by a dotted path
 * ("verdict.erase_size", "results.0.align").  Enough to prove that --json
 * output parses and to read numbers back from it.
 */
struct jp {
	const char *p;
	const char *found;	/* start of the value at the path */
	size_t found_len;
};

static int jp_value(struct jp *j, const char *path);

static void jp_ws(struct jp *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static int jp_string(struct jp *j, char *out, size_t out_len)
{
	size_t n = 0;

	if (*j->p != '"')
		return -1;
	j->p++;
	while (*j->p != '"') {
		unsigned char c = (unsigned char)*j->p;

		if (c < 0x20)
			return -1;
		if (c == '\\') {
			j->p++;
			if (*j->p == 'u') {
				int k;

				for (k = 1; k <= 4; k++)
					if (!strchr("0123456789abcdefABCDEF", j->p[k]) ||
					    !j->p[k])
						return -1;
				j->p += 4;
			} else if (!*j->p || !strchr("\"\\/bfnrt", *j->p)) {
				return -1;
			}
		}
		if (out && n + 1 < out_len)
			out[n++] = *j->p;
		j->p++;
	}
	if (out)
		out[n] = '\0';
	j->p++;
	return 0;
}

static int jp_number(struct jp *j)
{
	const char *s = j->p;

	if (*j->p == '-')
		j->p++;
	if (*j->p == '0')
		j->p++;
	else if (*j->p >= '1' && *j->p <= '9')
		while (*j->p >= '0' && *j->p <= '9')
			j->p++;
	else
		return -1;
	if (*j->p == '.') {
		j->p++;
		if (*j->p < '0' || *j->p > '9')
			return -1;
		while (*j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (*j->p == 'e' || *j->p == 'E') {
		j->p++;
		if (*j->p == '+' || *j->p == '-')
			j->p++;
		if (*j->p < '0' || *j->p > '9')
			return -1;
		while (*j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	return j->p > s ? 0 : -1;
}

/* Does path start with the member name (or index) name? Returns the rest. */
static const char *jp_step(const char *path, const char *name)
{
	size_t n = strlen(name);

	if (!path || strncmp(path, name, n))
		return NULL;
	if (path[n] == '.')
		return path + n + 1;
	if (path[n] == '\0')
		return "";
	return NULL;
}

static int jp_container(struct jp *j, const char *path, char close)
{
	char name[256];
	int index = 0;

	j->p++;
	jp_ws(j);
	if (*j->p == close) {
		j->p++;
		return 0;
	}
	for (;;) {
		const char *sub;

		jp_ws(j);
		if (close == '}') {
			if (jp_string(j, name, sizeof(name)))
				return -1;
			jp_ws(j);
			if (*j->p++ != ':')
				return -1;
		} else {
			snprintf(name, sizeof(name), "%d", index++);
		}
		jp_ws(j);
		sub = jp_step(path, name);
		if (jp_value(j, sub))
			return -1;
		jp_ws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p++ != close)
			return -1;
		return 0;
	}
}

static int jp_value(struct jp *j, const char *path)
{
	const char *start = j->p;
	int ret;

	switch (*j->p) {
	case '{':
		ret = jp_container(j, path, '}');
		break;
	case '[':
		ret = jp_container(j, path, ']');
		break;
	case '"':
		ret = jp_string(j, NULL, 0);
		break;
	case 't':
		ret = strncmp(j->p, "true", 4) ? -1 : 0;
		j->p += ret ? 0 : 4;
		break;
	case 'f':
		ret = strncmp(j->p, "false", 5) ? -1 : 0;
		j->p += ret ? 0 : 5;
		break;
	case 'n':
		ret = strncmp(j->p, "null", 4) ? -1 : 0;
		j->p += ret ? 0 : 4;
		break;
	default:
		ret = jp_number(j);
	}
	if (!ret && path && !*path) {
		j->found = start;
		j->found_len = (size_t)(j->p - start);
	}
	return ret;
}

int json_get(const char *text, const char *path, char *out, size_t out_len)
{
	struct jp j = { .p = text };

	if (utf8_invalid(text))
		return -1;		/* JSON text is UTF-8 (RFC 8259) */
	jp_ws(&j);
	if (jp_value(&j, path ? path : NULL))
		return -1;
	jp_ws(&j);
	if (*j.p)
		return -1;		/* trailing garbage */
	if (!path)
		return 0;
	if (!j.found)
		return -2;
	if (out) {
		size_t n = j.found_len < out_len - 1 ? j.found_len : out_len - 1;

		memcpy(out, j.found, n);
		out[n] = '\0';
	}
	return 0;
}

/*
 * Run flashbench with the space-separated arguments in args (no value
 * contains a space) and collect what it did.
 */
void fb_run(const char *args, struct fb_run *r)
{
	char *copy = strdup(args), *argv[FB_MAX_ARGS + 1], *tok, *save = NULL;
	size_t olen = 0, elen = 0;
	FILE *out, *err;
	int argc = 0;

	ck_assert_ptr_nonnull(copy);
	argv[argc++] = (char *)"flashbench";
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		ck_assert_int_lt(argc, FB_MAX_ARGS);
		argv[argc++] = tok;
	}
	argv[argc] = NULL;
	memset(r, 0, sizeof(*r));
	out = open_memstream(&r->out, &olen);
	err = open_memstream(&r->err, &elen);
	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(err);
	flashbench_io_calls = 0;
	flashbench_dev_opens = 0;
	r->status = flashbench_main(argc, argv, out, err);
	r->io_calls = flashbench_io_calls;
	r->opens = flashbench_dev_opens;
	fclose(out);
	fclose(err);
	free(copy);
	r->err_raw = strdup(r->err);
	ck_assert_ptr_nonnull(r->err_raw);
	unwrap_err(r->err);
	json_doc_keep(r->out);
}

void json_doc_keep(const char *out)
{
	static unsigned int n;
	const char *dir = getenv("FB_JSON_DIR");
	struct jr_value *doc;
	char err[JR_ERR_LEN], path[4096];
	FILE *f;

	if (!dir || !out || (out[0] != '{' && out[0] != '['))
		return;
	if (jr_parse(out, strlen(out), NULL, &doc, err, sizeof(err)))
		return;	/* not one document: the suites say so */
	jr_free(doc);
	snprintf(path, sizeof(path), "%s/%d-%u.json", dir, (int)getpid(),
		 n++);
	f = fopen(path, "w");
	if (!f)
		return;
	fputs(out, f);
	fclose(f);
}

void fb_free(struct fb_run *r)
{
	free(r->out);
	free(r->err);
	free(r->err_raw);
}


const char *json_at(const char *doc, const char *path, char *buf, size_t len)
{
	int ret = json_get(doc, path, buf, len);

	ck_assert_msg(ret == 0, "JSON path %s: %d in %.300s", path, ret, doc);
	return buf;
}

struct fault_plan fb_fault_plan;

struct device *fb_fault_hook(struct device *dev)
{
	struct device *f = NULL;

	ck_assert_int_eq(fault_wrap(&f, dev, &fb_fault_plan), 0);
	return f;
}

const char *fb_json(const struct fb_run *r, const char *path)
{
	static char buf[256];

	ck_assert_int_eq(json_get(r->out, path, buf, sizeof(buf)), 0);
	return buf;
}
