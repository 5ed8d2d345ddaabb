// SPDX-License-Identifier: GPL-2.0-only
/*
 * The erase size measured beside the AU the card states and the kernel's
 * preferred_erase_size.  The kernel sets the latter to the AU the SSR
 * states, and when it states none guesses from the capacity (512 KiB to
 * 4 MiB); the speed-class rules write an AU above 4 MiB in 4 MiB
 * sub-units, which is what timing then shows.
 */
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "reconcile.h"

#define SUBUNIT_BYTE	(4ULL << 20)

enum reconcile_fit reconcile_fit(uint64_t measured, uint64_t stated)
{
	if (!measured || !stated)
		return FIT_UNKNOWN;
	if (measured == stated)
		return FIT_AGREES;
	if (stated > SUBUNIT_BYTE && measured == SUBUNIT_BYTE &&
	    stated % SUBUNIT_BYTE == 0)
		return FIT_SUBUNIT;
	if (stated % measured == 0 || measured % stated == 0)
		return FIT_MULTIPLE;
	return FIT_DISAGREES;
}

static uint64_t kernel_value(const struct card_raw *raw)
{
	const char *v = raw->val[CF_PREFERRED_ERASE_SIZE];

	if (!raw->have[CF_PREFERRED_ERASE_SIZE] || !v[0])
		return 0;
	return strtoull(v, NULL, 10);
}

void reconcile(struct reconcile *rc, uint64_t measured_byte,
	       const struct card_raw *raw, const struct card_info *info)
{
	int sd = raw->have[CF_TYPE] && strcmp(raw->val[CF_TYPE], "MMC");

	memset(rc, 0, sizeof(*rc));
	rc->measured_byte = measured_byte;
	rc->stated_byte = info->au_byte;
	rc->kernel_byte = kernel_value(raw);
	rc->stated_fit = reconcile_fit(measured_byte, rc->stated_byte);
	rc->kernel_fit = reconcile_fit(measured_byte, rc->kernel_byte);
	if (!rc->kernel_byte)
		rc->kernel_from = KERNEL_NONE;
	else if (sd && rc->stated_byte && rc->kernel_byte == rc->stated_byte)
		rc->kernel_from = KERNEL_FROM_SSR;
	else if (sd && !rc->stated_byte && info->have_ssr)
		rc->kernel_from = KERNEL_GUESS;
	else if (sd && !info->have_ssr && info->have_csd &&
		 rc->kernel_byte ==
		 card_kernel_pref(info->csd.capacity_byte, 0))
		rc->kernel_from = KERNEL_GUESS;
	else
		rc->kernel_from = KERNEL_OTHER;
}

int reconcile_any(const struct reconcile *rc)
{
	return rc->stated_byte || rc->kernel_byte;
}

static const char *fit_text(enum reconcile_fit f)
{
	switch (f) {
	case FIT_AGREES:
		return "agrees";
	case FIT_SUBUNIT:
		return "4MiB sub-units: consistent";
	case FIT_MULTIPLE:
		return "a multiple: consistent";
	case FIT_DISAGREES:
		return "disagrees";
	case FIT_UNKNOWN:
		break;
	}
	return "not compared";
}

static const char *kernel_text(enum reconcile_kernel k)
{
	switch (k) {
	case KERNEL_FROM_SSR:
		return "from the SSR";
	case KERNEL_GUESS:
		return "a capacity guess";
	case KERNEL_OTHER:
		return "not an SD AU";
	case KERNEL_NONE:
		break;
	}
	return "not shown";
}

/* Why a stated size and the measured one differ, where it is known. */
static void print_why(FILE *out, const struct reconcile *rc)
{
	if (rc->stated_fit == FIT_SUBUNIT || rc->kernel_fit == FIT_SUBUNIT)
		fputs("  an AU above 4MiB is written in 4MiB sub-units by the speed-class\n"
		      "  rules: timing shows the sub-unit\n", out);
	if (rc->kernel_from == KERNEL_GUESS)
		fputs("  the SSR states no AU, so the kernel guesses 512KiB to 4MiB from\n"
		      "  the capacity: its value says nothing of the card\n", out);
	if (rc->stated_fit != FIT_UNKNOWN && rc->stated_fit != FIT_AGREES) {
		char a[FMT_LEN], b[FMT_LEN];

		fprintf(out, "  the advice uses the measured %s, not the %s the card states\n",
			fmt_size(a, rc->measured_byte),
			fmt_size(b, rc->stated_byte));
	}
}

void reconcile_print(FILE *out, const struct reconcile *rc)
{
	char a[FMT_LEN], b[FMT_LEN];

	if (!reconcile_any(rc))
		return;
	fprintf(out, "erase size measured %s; what the card and the kernel say:\n",
		rc->measured_byte ? fmt_size(a, rc->measured_byte) : "none");
	if (rc->stated_byte)
		fprintf(out, "  AU the card states (SSR): %s (%s)\n",
			fmt_size(b, rc->stated_byte),
			fit_text(rc->stated_fit));
	else
		fputs("  AU the card states (SSR): none\n", out);
	if (rc->kernel_byte)
		fprintf(out, "  kernel preferred_erase_size: %s, %s (%s)\n",
			fmt_size(b, rc->kernel_byte),
			kernel_text(rc->kernel_from),
			fit_text(rc->kernel_fit));
	print_why(out, rc);
}

static const char *const fit_names[] = {
	[FIT_UNKNOWN] = NULL, [FIT_AGREES] = "agrees",
	[FIT_SUBUNIT] = "sub-unit", [FIT_MULTIPLE] = "multiple",
	[FIT_DISAGREES] = "disagrees",
};

static const char *const kernel_names[] = {
	[KERNEL_NONE] = NULL, [KERNEL_FROM_SSR] = "ssr",
	[KERNEL_GUESS] = "capacity guess", [KERNEL_OTHER] = "other",
};

static void json_size(struct json *j, const char *key, uint64_t v)
{
	if (v)
		json_u64(j, key, v);
	else
		json_null(j, key);
}

static void json_name(struct json *j, const char *key, const char *v)
{
	if (v)
		json_string(j, key, v);
	else
		json_null(j, key);
}

void reconcile_json(struct json *j, const struct reconcile *rc)
{
	json_object_begin(j, "reconcile");
	json_size(j, "measured_erase_size", rc->measured_byte);
	json_size(j, "stated_au_size", rc->stated_byte);
	json_name(j, "stated_fit", fit_names[rc->stated_fit]);
	json_size(j, "kernel_preferred_erase_size", rc->kernel_byte);
	json_name(j, "kernel_from", kernel_names[rc->kernel_from]);
	json_name(j, "kernel_fit", fit_names[rc->kernel_fit]);
	json_object_end(j);
}
