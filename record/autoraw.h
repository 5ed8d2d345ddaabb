/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --auto's raw measurements as its record keeps them: the entries of
 * "results", each a step named by its "step" member, with their tables
 * of fields (rectab.h) over struct auto_result (autorecord.h).
 * output/autojson.c writes them, output/autoread.c reads them back.
 *
 * Tabled so far: the open-AU search ("open_au") and the run's summary
 * ("summary"); the align tables, the group probe, the erase search from
 * writes and the FAT probe are still written and read by hand.
 */
#ifndef FLASHBENCH_AUTORAW_H
#define FLASHBENCH_AUTORAW_H

#include "autorecord.h"
#include "rectab.h"

/* A step's entry of "results": over struct auto_result. */
extern const struct rt_table auto_open_step_table;
extern const struct rt_table auto_summary_table;
/* The mapping step (record/automap.c): where written, on its own. */
extern const struct rt_table auto_mapping_step_table;

/*
 * The names of what a record of an older shape lacks (bit k of
 * AUTO_LACK_*: name k), as "record_lacks" of --analyze's JSON says them.
 */
extern const char *const auto_lack_names[AUTO_LACKS];

/* The step a table is the entry of ("open_au"): its RT_CONST row's. */
const char *rt_step_name(const struct rt_table *t);

#endif /* FLASHBENCH_AUTORAW_H */
