// SPDX-License-Identifier: GPL-2.0-only
/*
 * What runs without a device: --analyze reads saved align tables,
 * --registers decodes a card's register files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "autoout.h"
#include "rowtext.h"
#include "cardout.h"
#include "cli.h"
#include "rechead.h"
#include "record.h"
#include "rowtext.h"
#include "wrap.h"

/* ---- --analyze ---- */

/* Read all of path ("-": stdin) into *text; returns 0 or -errno. */
static int slurp(const char *path, char **text, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct stat st;
	size_t cap = 0;
	char *buf = NULL, *p;
	int ret = 0;

	*len = 0;
	if (!f)
		return -errno;
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode))
		ret = -EISDIR;
	while (!ret) {
		size_t n;

		if (cap - *len < 65536) {
			cap = cap * 2 + 65536;
			p = realloc(buf, cap);
			if (!p) {
				ret = -ENOMEM;
				break;
			}
			buf = p;
		}
		errno = 0;
		n = fread(buf + *len, 1, cap - *len - 1, f);
		*len += n;
		if (!n && ferror(f))
			ret = errno ? -errno : -EIO;
		if (!n)
			break;
	}
	if (f != stdin)
		fclose(f);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[*len] = '\0';
	*text = buf;
	return 0;
}

/*
 * Read saved align tables, or a record (front/record.c), and state their
 * verdicts; returns the status.  Input without a table is bad input
 * (exit 2), found before any output file is opened, so a script can tell
 * it from a verdict.
 */
int run_analyze(struct cli *c, FILE *out)
{
	struct align_table *t = NULL;
	char *text = NULL;
	size_t len = 0, n = 0;
	int ret;

	ret = slurp(c->analyze_path, &text, &len);
	if (ret)
		return usage_error(c->err, "invalid --analyze '%s': %s",
				   c->analyze_path, strerror(-ret));
	if (c->run.plot)
		snprintf(c->run.plot->title, sizeof(c->run.plot->title),
			 "flashbench --analyze %s", c->analyze_path);
	if (is_record(c->analyze_path, text, len)) {
		ret = run_record(c, out, text, len);
		free(text);
		return ret;
	}
	ret = analyze_parse(text, len, &t, &n);
	free(text);
	if (ret)
		return usage_error(c->err, "--analyze: %s", strerror(-ret));
	if (!n)
		return usage_error(c->err, "no align table found in %s",
				   strcmp(c->analyze_path, "-") ?
					   c->analyze_path : "standard input");
	ret = analyze_tables_out(c, out, t, n, NULL);
	analyze_free_tables(t, n);
	return ret;
}

/* ---- --registers ---- */

/* --registers as JSON: device.card, as for a device. */
static void registers_json(struct cli *c, FILE *res,
			   struct card_raw *raw, struct card_info *ci)
{
	struct record_head h;
	struct run_host host;
	struct json j;

	json_head_init(c, &h, "registers", &host);
	h.has_options = 0;
	h.has_device = 1;
	h.dev.path = c->registers_dir;
	head_card(c, &h.dev.card, raw, ci);
	json_init(&j, res);
	json_object_begin(&j, NULL);
	rt_write(&j, &record_head_table, &h);
	json_tail(&j, 0, 0);
}

/*
 * The registers of a device: sysfs, and an eMMC's EXT_CSD asked of it
 * (an SD card's are all in sysfs).  Returns 0, or the status after one
 * line on the error stream: a refusal (not root, a partition) or an I/O
 * error is the device's (exit 1); anything else, as a device that is no
 * eMMC or not there, bad input (exit 2).
 */
static int registers_device(struct cli *c, struct card_raw *raw)
{
	const char *path = c->registers_dir;

	card_read_device(path, raw);
	if (raw->have[CF_TYPE] && strcmp(raw->val[CF_TYPE], "MMC"))
		return 0;
	if (raw->ext.form == EXT_CSD_NONE && !raw->ext_err)
		card_read_ext_csd(path, raw);
	if (!raw->ext_err)
		return 0;
	if (raw->ext_err != -EACCES && raw->ext_err != -EPERM &&
	    raw->ext_err != -EIO)
		return usage_error(c->err, "--registers %s: %s", path,
				   raw->ext_why);
	wrap_printf(c->err, "flashbench:   ", "flashbench: --registers %s: %s\n",
		    path, raw->ext_why);
	return EXIT_DEVICE;
}

/* The register files of a directory; 0 or EXIT_USAGE after one line. */
static int registers_dir(struct cli *c, struct card_raw *raw)
{
	if (!card_read_dir(c->registers_dir, CARD_DIR, raw))
		return usage_error(c->err,
				   "no register files (cid, csd, scr, ssr, ext_csd, ...) in %s",
				   c->registers_dir);
	if (!card_is_sd_mmc(raw))
		return usage_error(c->err,
				   "no SD/MMC register files (cid, csd, scr, ssr, type, ...) in %s, only %s: the directory of another kind of disk (USB, SCSI, virtio)",
				   c->registers_dir,
				   raw->have[CF_VENDOR] && raw->have[CF_MODEL] ?
				   "vendor and model" : raw->have[CF_VENDOR] ?
				   "vendor" : "model");
	if (raw->ext_err)
		return usage_error(c->err, "invalid --registers '%s': ext_csd: %s",
				   c->registers_dir, raw->ext_why);
	return 0;
}

/*
 * Decode the register files of a directory, or what a device says of
 * itself; returns the status.  A directory without any is bad input
 * (exit 2), found before any output file is opened.
 */
int run_registers(struct cli *c, FILE *out)
{
	struct card_raw raw;
	struct card_info ci;
	struct stat st;
	FILE *res = out;
	int ret, dev;

	if (stat(c->registers_dir, &st))
		return usage_error(c->err, "invalid --registers '%s': %s",
				   c->registers_dir, strerror(errno));
	dev = S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode);
	if (!dev && !S_ISDIR(st.st_mode))
		return usage_error(c->err,
				   "invalid --registers '%s': not a directory nor a device",
				   c->registers_dir);
	ret = dev ? registers_device(c, &raw) : registers_dir(c, &raw);
	if (ret)
		return ret;
	card_decode(&raw, &ci);
	ret = open_outputs(c, out, &res);
	if (ret)
		return ret;
	if (c->json) {
		registers_json(c, res, &raw, &ci);
	} else {
		fprintf(res, "Card registers %s %s:\n", dev ? "of" : "in",
			c->registers_dir);
		card_print(res, &raw, &ci);
	}
	if (finish_output(c, res, res != out))
		return EXIT_DEVICE;
	return 0;
}
