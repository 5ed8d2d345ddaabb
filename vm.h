/* SPDX-License-Identifier: GPL-2.0-only */
/* The timing VM (placeholder until it lands). */
#ifndef FLASHBENCH_VM_H
#define FLASHBENCH_VM_H

#include "dev.h"

#endif /* FLASHBENCH_VM_H */
