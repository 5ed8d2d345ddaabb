// SPDX-License-Identifier: GPL-2.0-only
/*
 * The erase size measured beside the AU the card states and the kernel's
 * preferred_erase_size.  The kernel sets the latter to the AU the SSR
 * states, and when it states none guesses from the capacity (512 KiB to
 * 4 MiB); the speed-class rules write an AU above 4 MiB in 4 MiB
 * sub-units, which is what timing then shows.  An eMMC states no AU but
 * an erase group and a large unit (set against the erase size), a
 * super-page and an optimal write size (set against the page), and its
 * wear.
 */
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "recbody.h"
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
	reconcile_ext_csd(rc, &info->ext);
}

/* An eMMC's size against one measured: no SD sub-units here. */
static enum reconcile_fit emmc_fit(uint64_t measured, uint64_t stated)
{
	enum reconcile_fit f = reconcile_fit(measured, stated);

	if (f != FIT_SUBUNIT)
		return f;
	return stated % measured == 0 ? FIT_MULTIPLE : FIT_DISAGREES;
}

void reconcile_ext_csd(struct reconcile *rc, const struct ext_csd_info *e)
{
	struct reconcile_emmc *m = &rc->emmc;
	uint64_t page = m->page_byte;

	memset(m, 0, sizeof(*m));
	if (!e->have)
		return;
	m->have = 1;
	m->erase_group_byte = ext_csd_bytes(e, ECF_HC_ERASE_GRP_SIZE);
	m->large_unit_byte = ext_csd_bytes(e, ECF_LARGE_UNIT_SIZE_M1);
	m->erase_group_fit = emmc_fit(rc->measured_byte, m->erase_group_byte);
	m->large_unit_fit = emmc_fit(rc->measured_byte, m->large_unit_byte);
	m->super_page_byte = ext_csd_bytes(e, ECF_ACC_SIZE);
	m->optimal_write_byte = ext_csd_bytes(e, ECF_OPTIMAL_WRITE_SIZE);
	m->cache_byte = ext_csd_bytes(e, ECF_CACHE_SIZE);
	m->cache_fit = FIT_UNKNOWN;	/* RAM: not the pSLC cache measured */
	m->pslc_max_byte = ext_csd_bytes(e, ECF_MAX_ENH_SIZE_MULT);
	ext_csd_health(m->health, sizeof(m->health), e);
	reconcile_page(rc, page);
}

void reconcile_cache(struct reconcile *rc, uint64_t cache_byte)
{
	struct reconcile_emmc *m = &rc->emmc;

	m->write_cache_byte = cache_byte;
	m->write_cache_fit = !cache_byte || !m->pslc_max_byte ? 0 :
			     cache_byte <= m->pslc_max_byte ? 1 : 2;
}

void reconcile_page(struct reconcile *rc, uint64_t page_byte)
{
	struct reconcile_emmc *m = &rc->emmc;

	m->page_byte = page_byte;
	m->super_page_fit = emmc_fit(page_byte, m->super_page_byte);
	m->optimal_write_fit = emmc_fit(page_byte, m->optimal_write_byte);
}

int reconcile_any(const struct reconcile *rc)
{
	return rc->stated_byte || rc->kernel_byte || rc->emmc.have;
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

/* "  what: 512KiB (agrees)" or "  what: not stated". */
static void print_stated(FILE *out, const char *what, uint64_t stated,
			 enum reconcile_fit fit)
{
	char a[FMT_LEN];

	fprintf(out, "  %s: %s", what,
		stated ? fmt_size(a, stated) : "not stated");
	if (stated)
		fprintf(out, " (%s)", fit_text(fit));
	fputc('\n', out);
}

/* The pSLC area it can make beside the write cache measured. */
static void print_pslc(FILE *out, const struct reconcile_emmc *m)
{
	char a[FMT_LEN];

	if (!m->pslc_max_byte)
		return;
	fprintf(out, "  pSLC area it can make: %s", fmt_size(a, m->pslc_max_byte));
	if (m->write_cache_byte)
		fprintf(out, " (write cache measured: %s, %s)",
			fmt_size(a, m->write_cache_byte),
			m->write_cache_fit == 1 ? "within it" : "larger");
	fputc('\n', out);
}

/* The eMMC's page sizes, its cache and its health, after the erase size. */
static void print_emmc(FILE *out, const struct reconcile_emmc *m)
{
	char a[FMT_LEN];

	fprintf(out, "page measured %s; what the eMMC states (EXT_CSD):\n",
		m->page_byte ? fmt_size(a, m->page_byte) : "none");
	print_stated(out, "super-page", m->super_page_byte,
		     m->super_page_fit);
	print_stated(out, "optimal write size", m->optimal_write_byte,
		     m->optimal_write_fit);
	if (m->cache_byte)
		fprintf(out, "  volatile cache: %s (RAM, not the write cache measured in flash)\n",
			fmt_size(a, m->cache_byte));
	else
		fputs("  volatile cache: none stated\n", out);
	print_pslc(out, m);
	fprintf(out, "  health: %s\n",
		m->health[0] ? m->health : "not stated (eMMC 5.0 and later)");
}

void reconcile_print(FILE *out, const struct reconcile *rc)
{
	char a[FMT_LEN], b[FMT_LEN];

	if (!reconcile_any(rc))
		return;
	fprintf(out, "erase size measured %s; what the card and the kernel say:\n",
		rc->measured_byte ? fmt_size(a, rc->measured_byte) : "none");
	if (rc->emmc.have) {
		print_stated(out, "erase group the eMMC states (EXT_CSD)",
			     rc->emmc.erase_group_byte,
			     rc->emmc.erase_group_fit);
		print_stated(out, "large unit (EXT_CSD)",
			     rc->emmc.large_unit_byte,
			     rc->emmc.large_unit_fit);
	} else if (rc->stated_byte) {
		fprintf(out, "  AU the card states (SSR): %s (%s)\n",
			fmt_size(b, rc->stated_byte),
			fit_text(rc->stated_fit));
	} else {
		fputs("  AU the card states (SSR): none\n", out);
	}
	if (rc->kernel_byte)
		fprintf(out, "  kernel preferred_erase_size: %s, %s (%s)\n",
			fmt_size(b, rc->kernel_byte),
			kernel_text(rc->kernel_from),
			fit_text(rc->kernel_fit));
	print_why(out, rc);
	if (rc->emmc.have)
		print_emmc(out, &rc->emmc);
}

void reconcile_json(struct json *j, const struct reconcile *rc)
{
	rt_write_object(j, BODY_KEY(RM_RECONCILE), &reconcile_table, rc);
}
