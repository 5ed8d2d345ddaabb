// SPDX-License-Identifier: GPL-2.0-only
/*
 * --plot of --auto: one page with the verdict in words, the align table
 * the verdict comes from, the open-AU probes and the FAT probe, drawn by
 * the chart engine (chart.c).  See plot.h.
 */
#include <math.h>
#include <stdio.h>

#include "chart.h"
#include "format.h"
#include "plot.h"

/* The open-AU probes of one order as a series: ratio against nr. */
static void open_series(struct chart *c, const char *name,
			const struct auto_open *o)
{
	double x[AUTO_MAX_PROBES], y[AUTO_MAX_PROBES];
	size_t i;

	for (i = 0; i < o->nprobes; i++) {
		x[i] = o->probes[i].nr;
		y[i] = o->probes[i].ratio;
	}
	chart_series(c, name, x, y, o->nprobes, 1, NULL);
}

/* A verdict line for the summary: "open AUs, linear: 4 (high)". */
static void open_text(char *buf, size_t len, const struct auto_open *o)
{
	if (!o->measured)
		snprintf(buf, len, "not measured");
	else
		snprintf(buf, len, "%s%u (confidence %s)",
			 o->at_least ? "at least " : "", o->nr,
			 analyze_confidence_name(o->confidence));
}

/* A size found with its confidence: "32KiB (confidence high)". */
static void step_text(char *buf, size_t len, const struct analyze_step *st)
{
	char a[FMT_LEN];

	snprintf(buf, len, "%s (confidence %s)",
		 st->size_byte ? fmt_size(a, st->size_byte) : "none",
		 analyze_confidence_name(st->confidence));
}

static void fat_text(char *buf, size_t len, const struct auto_fat *fat)
{
	if (!fat->measured)
		snprintf(buf, len, "FAT area: not measured");
	else if (!fat->found)
		snprintf(buf, len, "FAT area: none (confidence %s)",
			 analyze_confidence_name(fat->confidence));
	else
		snprintf(buf, len, "FAT area: %u AU%s from AU %u (confidence %s)",
			 fat->count, fat->count == 1 ? "" : "s", fat->start,
			 analyze_confidence_name(fat->confidence));
}

/* The capacity check's verdict, as the text's "capacity:" line says it. */
static void capacity_text(char *buf, size_t len, const struct auto_result *r)
{
	const struct capacity_result *c = &r->capacity;
	char u[FMT_LEN], a[FMT_LEN];

	if (!r->capacity_done)
		snprintf(buf, len, "capacity: not checked");
	else if (c->kind == CAPACITY_GENUINE)
		snprintf(buf, len, "capacity: genuine, all %s store data",
			 fmt_size(a, c->announced_byte));
	else
		snprintf(buf, len, "capacity: FAKE (%s), usable %s%s of %s",
			 capacity_kind_name(c->kind),
			 c->kind == CAPACITY_LIMBO && !c->exact ?
			 "at least " : "", fmt_size(u, c->usable_byte),
			 fmt_size(a, c->announced_byte));
}

/*
 * The class check's verdict: the classes that failed, how many were
 * unsure (met only within a write cache maybe) and how many passed.
 */
static void class_text(char *buf, size_t len, const struct class_result *cr)
{
	size_t i, at, pass = 0, unsure = 0;

	if (!cr || !cr->n) {
		snprintf(buf, len, "classes: not checked");
		return;
	}
	at = (size_t)snprintf(buf, len, "classes:");
	for (i = 0; i < cr->n; i++) {
		if (cr->c[i].pass)
			pass++;
		else if (cr->c[i].within)
			unsure++;
		else if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s %s",
					       at == 8 ? " FAIL" : "",
					       cr->c[i].name);
	}
	if (unsure && at < len)
		at += (size_t)snprintf(buf + at, len - at, "%s%zu unsure",
				       at == 8 ? " " : "; ", unsure);
	if (at < len)
		snprintf(buf + at, len - at, "%s%zu of %zu pass",
			 at == 8 ? " " : unsure ? ", " : "; ", pass, cr->n);
}

/*
 * The verdict above the charts, two columns: the sizes and the FAT area
 * on the left, the open AUs, the checks and the device time on the right.
 */
static void verdict_lines(FILE *f, const struct auto_result *r,
			  const struct class_result *cr, double top)
{
	char line[200], b[FMT_LEN], t[96];
	uint64_t ns = r->device_ns + (cr && cr->n ? cr->device_ns : 0);

	step_text(t, sizeof(t), &r->align.erase);
	snprintf(line, sizeof(line), "erase size: %s", t);
	chart_text(f, 90, top, "start", "sub", line);
	step_text(t, sizeof(t), &r->align.page);
	snprintf(line, sizeof(line), "page size: %s", t);
	chart_text(f, 90, top + 20, "start", "sub", line);
	step_text(t, sizeof(t), &r->align.plane);
	snprintf(line, sizeof(line), "program unit: %s", t);
	chart_text(f, 90, top + 40, "start", "sub", line);
	step_text(t, sizeof(t), &r->align.group);
	snprintf(line, sizeof(line), "allocation group: %s", t);
	chart_text(f, 90, top + 60, "start", "sub", line);
	fat_text(line, sizeof(line), &r->fat);
	chart_text(f, 90, top + 80, "start", "sub", line);
	open_text(t, sizeof(t), &r->open_linear);
	snprintf(line, sizeof(line), "open AUs, linear order: %s", t);
	chart_text(f, 480, top, "start", "sub", line);
	open_text(t, sizeof(t), &r->open_random);
	snprintf(line, sizeof(line), "open AUs, random order: %s", t);
	chart_text(f, 480, top + 20, "start", "sub", line);
	capacity_text(line, sizeof(line), r);
	chart_text(f, 480, top + 40, "start", "sub", line);
	class_text(line, sizeof(line), cr);
	chart_text(f, 480, top + 60, "start", "sub", line);
	snprintf(line, sizeof(line), "device time: %s%s%s",
		 fmt_time(b, (int64_t)ns),
		 r->skip_reason ? "; write steps skipped: " : "",
		 r->skip_reason ? r->skip_reason : "");
	chart_text(f, 480, top + 80, "start", "sub", line);
}

/* A panel that says why it is empty. */
static void empty_panel(FILE *f, double top, double h, const char *why)
{
	fprintf(f, "<rect x=\"90\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f4f4f4\" stroke=\"#bbb\"/>\n",
		top, CHART_PAGE_W - 120, h);
	chart_text(f, CHART_PAGE_W / 2, top + h / 2, "middle", "note", why);
}

static void open_panel(FILE *f, const struct auto_result *r, double top,
		       double h)
{
	const struct auto_open *l = &r->open_linear, *m = &r->open_random;
	double xmax = 2, ymax = 1;
	char text[48];
	struct chart c;
	size_t i;

	chart_text(f, 90, top - 28, "start", "sub",
		   "open-AU probes: write time against one open AU, by AUs written in turn");
	if (!l->measured && !m->measured) {
		empty_panel(f, top, h, r->skip_reason ?
			    "not measured: the write steps need --destructive" :
			    "not measured");
		return;
	}
	for (i = 0; i < l->nprobes; i++) {
		xmax = fmax(xmax, l->probes[i].nr);
		ymax = fmax(ymax, l->probes[i].ratio);
	}
	for (i = 0; i < m->nprobes; i++) {
		xmax = fmax(xmax, m->probes[i].nr);
		ymax = fmax(ymax, m->probes[i].ratio);
	}
	chart_init(&c, f, top, CHART_PAGE_W, h);
	c.x = (struct chart_axis){ .unit = CHART_NUM, .whole = 1,
			     .label = "AUs written in turn" };
	c.y = (struct chart_axis){ .unit = CHART_NUM, .label = "time / time with one AU" };
	chart_fit_linear(&c.x, 0, xmax + 1);
	chart_fit_linear(&c.y, 0, ymax * 1.1);
	chart_frame(&c);
	if (l->measured)
		open_series(&c, "linear", l);
	if (m->measured)
		open_series(&c, "random", m);
	if (l->measured && l->nr) {
		snprintf(text, sizeof(text), "linear: %s%u open AUs",
			 l->at_least ? ">= " : "", l->nr);
		chart_vmark(&c, "open-linear", l->nr, l->nr, "#1f77b4", text,
			    0);
	}
	if (m->measured && m->nr) {
		snprintf(text, sizeof(text), "random: %s%u open AUs",
			 m->at_least ? ">= " : "", m->nr);
		chart_vmark(&c, "open-random", m->nr, m->nr, "#d62728", text,
			    1);
	}
}

static void fat_panel(FILE *f, const struct auto_result *r, double top,
		      double h)
{
	const struct auto_fat *fat = &r->fat;
	double x[AUTO_FAT_MAX], yl[AUTO_FAT_MAX], yr[AUTO_FAT_MAX], ymax = 2;
	struct chart c;
	unsigned int i;

	chart_text(f, 90, top - 28, "start", "sub",
		   "FAT probe: small-write speed of the first AUs against AUs far from the start");
	if (!fat->measured) {
		empty_panel(f, top, h, r->skip_reason ?
			    "not measured: the write steps need --destructive" :
			    "not measured");
		return;
	}
	for (i = 0; i < fat->naus && i < AUTO_FAT_MAX; i++) {
		x[i] = i;
		yl[i] = fat->lin_ratio[i];
		yr[i] = fat->rnd_ratio[i];
		ymax = fmax(ymax, fmax(yl[i], yr[i]));
	}
	chart_init(&c, f, top, CHART_PAGE_W, h);
	c.x = (struct chart_axis){ .unit = CHART_NUM, .whole = 1, .label = "AU number" };
	c.y = (struct chart_axis){ .unit = CHART_NUM, .label = "speed / far AUs" };
	chart_fit_linear(&c.x, 0, fat->naus > 1 ? fat->naus - 1 : 1);
	chart_fit_linear(&c.y, 0, ymax * 1.1);
	chart_frame(&c);
	chart_series(&c, "in order", x, yl, i, 1, NULL);
	chart_series(&c, "out of order", x, yr, i, 1, NULL);
	if (fat->found) {
		char text[64];

		if (fat->count > 1)
			snprintf(text, sizeof(text), "FAT area: AUs %u-%u",
				 fat->start, fat->start + fat->count - 1);
		else
			snprintf(text, sizeof(text), "FAT area: AU %u",
				 fat->start);
		chart_vmark(&c, "fat", fat->start, fat->start, "#b00000",
			    text, 0);
	}
}

int plot_auto(FILE *f, const char *title, const struct auto_result *r,
	      const struct class_result *cr)
{
	const double h = 1280;
	const struct auto_table *t = &r->tables[r->chosen];
	int ret = 0;

	chart_page_begin(f, CHART_PAGE_W, h, title);
	verdict_lines(f, r, cr, 56);
	if (r->ntables) {
		char sub[128], bs[FMT_LEN];

		snprintf(sub, sizeof(sub),
			 "align test with %s blocks (the table the verdict comes from)",
			 fmt_size(bs, t->blocksize_byte));
		chart_text(f, 90, 182, "start", "sub", sub);
		ret = plot_align_chart(f, 210, CHART_PAGE_W, 300, t->rows,
				       t->nrows, &r->align);
	} else {
		empty_panel(f, 210, 300, "no align table");
	}
	if (ret)
		return ret;
	open_panel(f, r, 600, 250);
	fat_panel(f, r, 950, 250);
	return chart_page_end(f);
}
