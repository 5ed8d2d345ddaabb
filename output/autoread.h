/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --auto's record read back: the JSON document of an --auto run (see
 * output/autojson.c for where each raw field is) into a struct
 * auto_result, for --analyze to judge again with auto_decide().
 */
#ifndef FLASHBENCH_AUTOREAD_H
#define FLASHBENCH_AUTOREAD_H

#include <stddef.h>

#include "autorecord.h"
#include "jsonread.h"

/*
 * Fill r from doc, the parsed record of an --auto run: the raw fields
 * the decisions read and what the text and JSON print besides (the
 * verdict fields are left for auto_decide()); the capacity check's
 * result as the record states it (its own verdict, not judged again).
 * skip_reason and skip_settle point into doc: keep it while r is used.
 * Returns 0, or -ENOENT (a member is missing) or -EINVAL (of the wrong
 * type or out of range), with err holding "LINE:COL: what" on one line.
 * On error r may hold rows: free with auto_free() either way.
 */
int auto_record_read(const struct jr_value *doc, struct auto_result *r,
		     char *err, size_t err_len);

#endif /* FLASHBENCH_AUTOREAD_H */
