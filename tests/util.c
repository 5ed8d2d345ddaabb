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

#include "sim.h"
#include "util.h"

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
