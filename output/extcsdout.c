// SPDX-License-Identifier: GPL-2.0-only
/*
 * An eMMC's EXT_CSD, shown as text (lines of at most 80 columns).  Its
 * JSON is the record's (record/cardrec.c's table, the fields walked from
 * extcsd.c's table, so that a field is named in one place).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "extcsdout.h"
#include "format.h"

#define HEAD "  EXT_CSD: "

/* A size the device states, "not stated" otherwise, into buf. */
static const char *size_text(char *buf, const struct ext_csd_info *e,
			     enum ext_csd_field f)
{
	uint64_t b = ext_csd_bytes(e, f);

	return b ? fmt_size(buf, b) : "not stated";
}

static void print_revision(FILE *out, const struct ext_csd_info *e)
{
	const char *v = ext_csd_version(e->rev);

	fprintf(out, HEAD "revision %u (eMMC %s), %s\n", e->rev,
		v ? v : "newer than 5.1", ext_csd_form_text(e->form));
}

static void print_capacity(FILE *out, const struct ext_csd_info *e)
{
	char a[FMT_LEN];
	uint64_t boot = ext_csd_bytes(e, ECF_BOOT_SIZE_MULT);
	uint64_t rpmb = ext_csd_bytes(e, ECF_RPMB_SIZE_MULT);
	uint64_t cap = ext_csd_bytes(e, ECF_SEC_COUNT);

	if (cap)
		fprintf(out, HEAD "capacity %" PRIu64 " bytes (%s)", cap,
			fmt_size(a, cap));
	else
		fputs(HEAD "capacity not stated (2GB or less: the CSD's)", out);
	if (boot)
		fprintf(out, ", boot 2 x %s", fmt_size(a, boot));
	if (rpmb)
		fprintf(out, ", RPMB %s", fmt_size(a, rpmb));
	fputc('\n', out);
}

static void print_erase(FILE *out, const struct ext_csd_info *e)
{
	char a[FMT_LEN], b[FMT_LEN];
	uint64_t def;

	fprintf(out, HEAD "erase group %s, write-protect group %s",
		size_text(a, e, ECF_HC_ERASE_GRP_SIZE),
		size_text(b, e, ECF_HC_WP_GRP_SIZE));
	if (ext_csd_get(e, ECF_ERASE_GROUP_DEF, &def))
		fprintf(out, "; ERASE_GROUP_DEF %u", (unsigned int)(def & 1));
	fputc('\n', out);
}

static void print_pages(FILE *out, const struct ext_csd_info *e)
{
	char a[FMT_LEN], b[FMT_LEN], c[FMT_LEN];

	fprintf(out, HEAD "super-page %s; ", size_text(a, e, ECF_ACC_SIZE));
	if (e->rev < ext_csd_fields[ECF_OPTIMAL_WRITE_SIZE].min_rev) {
		fputs("optimal sizes not stated (eMMC 5.0 on)\n", out);
		return;
	}
	fprintf(out, "optimal write %s, read %s, trim %s\n",
		size_text(a, e, ECF_OPTIMAL_WRITE_SIZE),
		size_text(b, e, ECF_OPTIMAL_READ_SIZE),
		size_text(c, e, ECF_OPTIMAL_TRIM_UNIT_SIZE));
}

static void print_cache(FILE *out, const struct ext_csd_info *e)
{
	char a[FMT_LEN];
	uint64_t on = 0, depth;

	if (e->rev < ext_csd_fields[ECF_CACHE_SIZE].min_rev) {
		fputs(HEAD "large unit and cache not stated (eMMC 4.5 on)\n",
		      out);
		return;
	}
	ext_csd_get(e, ECF_CACHE_CTRL, &on);
	fprintf(out, HEAD "large unit %s, ",
		size_text(a, e, ECF_LARGE_UNIT_SIZE_M1));
	if (ext_csd_bytes(e, ECF_CACHE_SIZE))
		fprintf(out, "cache %s (%s)", fmt_size(a, ext_csd_bytes(e,
			ECF_CACHE_SIZE)), on & 1 ? "on" : "off");
	else
		fputs("no cache", out);
	if (ext_csd_get(e, ECF_CMDQ_DEPTH, &depth))
		fprintf(out, ", command queue %" PRIu64 " deep", depth);
	else if (e->rev >= ext_csd_fields[ECF_CMDQ_SUPPORT].min_rev)
		fputs(", no command queue", out);
	fputc('\n', out);
}

/* The enhanced (pSLC) area: what the device could make and has. */
static void print_enhanced(FILE *out, const struct ext_csd_info *e)
{
	char a[FMT_LEN], b[FMT_LEN];
	uint64_t sup = 0, attr = 0, done = 0, size, max;

	if (!ext_csd_get(e, ECF_PARTITIONING_SUPPORT, &sup))
		return;
	max = ext_csd_bytes(e, ECF_MAX_ENH_SIZE_MULT);
	if (!(sup & 2) || !max) {
		fputs(HEAD "no enhanced (pSLC) area\n", out);
		return;
	}
	fprintf(out, HEAD "enhanced (pSLC) area up to %s, ", fmt_size(a, max));
	ext_csd_get(e, ECF_PARTITIONS_ATTRIBUTE, &attr);
	ext_csd_get(e, ECF_PARTITION_SETTING_COMPLETED, &done);
	size = ext_csd_bytes(e, ECF_ENH_SIZE_MULT);
	if (!(attr & 1) || !size) {
		fputs("none configured\n", out);
		return;
	}
	fprintf(out, "%s at %s%s\n", fmt_size(a, size),
		fmt_size(b, ext_csd_bytes(e, ECF_ENH_START_ADDR)),
		done & 1 ? "" : " (not completed)");
}

/* The bus modes DEVICE_TYPE lists, fastest first, and the firmware. */
static void print_modes(FILE *out, const struct ext_csd_info *e)
{
	static const struct { uint8_t bits; const char *name; } modes[] = {
		{ 0xc0, "HS400" }, { 0x30, "HS200" }, { 0x0c, "DDR52" },
		{ 0x02, "HS52" }, { 0x01, "HS26" },
	};
	uint64_t t = 0;
	size_t i, n = 0;
	int text = 1;

	ext_csd_get(e, ECF_DEVICE_TYPE, &t);
	fputs(HEAD "bus", out);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (t & modes[i].bits) {
			fprintf(out, " %s", modes[i].name);
			n++;
		}
	if (!n)
		fputs(" modes not stated", out);
	if (!e->firmware[0]) {
		fputc('\n', out);
		return;
	}
	for (i = 0; i < 16; i += 2) {
		unsigned int ch;

		sscanf(e->firmware + i, "%2x", &ch);
		text &= ch >= 0x20 && ch < 0x7f;
	}
	if (!text) {
		fprintf(out, ", firmware 0x%s\n", e->firmware);
		return;
	}
	fputs(", firmware \"", out);
	for (i = 0; i < 16; i += 2) {
		unsigned int ch;

		sscanf(e->firmware + i, "%2x", &ch);
		fputc((int)ch, out);
	}
	fputs("\"\n", out);
}

void ext_csd_print(FILE *out, const struct ext_csd_info *e)
{
	char health[160];

	if (!e->have)
		return;
	print_revision(out, e);
	print_capacity(out, e);
	print_erase(out, e);
	print_pages(out, e);
	print_cache(out, e);
	print_enhanced(out, e);
	print_modes(out, e);
	ext_csd_health(health, sizeof(health), e);
	if (health[0])
		fprintf(out, "  health: %s\n", health);
	else
		fputs("  health: not stated (eMMC 5.0 and later state it)\n",
		      out);
}
