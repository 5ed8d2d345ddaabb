// SPDX-License-Identifier: GPL-2.0-only
/* The timing VM (placeholder until it lands). */
#include "vm.h"
