/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --auto's raw measurements as its record keeps them: the entries of
 * "results", each a step named by its "step" member, with their tables
 * of fields (rectab.h) over struct auto_result (autorecord.h).
 * output/autojson.c writes them, output/autoread.c reads them back,
 * both through auto_raw_write() and auto_raw_read(): the align tables
 * ("align"), the group probe ("group"), the write cache
 * ("write_cache", cacherec.h), the erase search from writes
 * ("erase_writes"), the FAT probe ("fat"), the open-AU search
 * ("open_au"), the mapping's ("mapping"), the write latency
 * ("write_latency", latrec.h) and the run's summary ("summary"), in
 * that order.
 */
#ifndef FLASHBENCH_AUTORAW_H
#define FLASHBENCH_AUTORAW_H

#include "autorecord.h"
#include "rectab.h"

/*
 * A step's entry of "results": over struct auto_table (align), struct
 * auto_group (group), struct auto_fat (fat), struct auto_result (the
 * others).
 */
extern const struct rt_table auto_align_step_table;
extern const struct rt_table auto_group_step_table;
extern const struct rt_table auto_erase_step_table;
extern const struct rt_table auto_fat_step_table;
extern const struct rt_table auto_open_step_table;
extern const struct rt_table auto_summary_table;
/* The mapping step (record/automap.c): where written, on its own. */
extern const struct rt_table auto_mapping_step_table;

/*
 * The names of what a record of an older shape lacks (bit k of
 * AUTO_LACK_*: name k), as "record_lacks" of --analyze's JSON says them.
 */
extern const char *const auto_lack_names[AUTO_LACKS];

/* The entries of "results" r has, each step's in order, into j's array. */
void auto_raw_write(struct json *j, const struct auto_result *r);

/*
 * Read entry o of "results" (named where in messages) into r by its
 * "step"; an align table is added to r's.  Returns the step's table, or
 * NULL for an entry of no step this version knows (c->ret says why).
 */
const struct rt_table *auto_raw_read(struct rt_rd *c,
				     const struct jr_value *o,
				     const char *where, struct auto_result *r);

/*
 * The means of an older record's open-AU probes (step: its "open_au"
 * entry, read into r already), worked out from their ratios.
 */
void auto_open_means_read(const struct jr_value *step,
			  struct auto_result *r);

/*
 * Does the first align step of an --auto record's "results" hold its
 * reads at each position (1 too when it has none)?
 */
int auto_raw_has_positions(const struct jr_value *results);

/* The step a table is the entry of ("open_au"): its RT_CONST row's. */
const char *rt_step_name(const struct rt_table *t);

#endif /* FLASHBENCH_AUTORAW_H */
