// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the --simulate SPEC parser and the card it builds.
 *
 * Input: a SPEC up to the first NUL (or the whole input), then optional
 * I/O commands of 4 bytes each (kind, unit, position, length) that are
 * played against the card when the SPEC is accepted.
 *
 * Checked: a refused SPEC leaves the parameters alone and says why on one
 * line; an accepted one opens; in-range, aligned I/O succeeds and never
 * turns the virtual clock back; out-of-range or misaligned I/O is -EINVAL.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "sim.h"

/* The largest read or write a command makes: the buffer's size. */
#define SPEC_MAX_IO (1u << 20)
/* Commands played per input. */
#define SPEC_MAX_CMDS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Play one command; aborts when the card breaks a promise. */
static void play(struct device *dev, const struct sim_params *p, void *buf,
		 const uint8_t *cmd)
{
	static const uint64_t sector = 512;
	uint64_t unit, off, len, t0, t1;
	int ret, expect;

	switch (cmd[1] % 4) {
	case 0:
		unit = sector;
		break;
	case 1:
		unit = p->page_byte;
		break;
	case 2:
		unit = p->erase_byte;
		break;
	default:
		unit = p->erase_byte / 2;	/* a page multiple: page <= erase */
		break;
	}
	off = (uint64_t)cmd[2] * unit;
	if (cmd[1] & 0x80)		/* count from the end */
		off = off > dev->size_byte ? 0 : dev->size_byte - off;
	len = (uint64_t)(cmd[3] & 0x7f) * sector;
	if (cmd[3] & 0x80)
		len = len * 8 + sector * (cmd[1] >> 2 & 1);
	if (cmd[1] & 0x40)		/* misaligned on purpose */
		off += cmd[0] >> 2 & 0x3f;
	if (len > SPEC_MAX_IO && cmd[0] % 3 != 2)
		len = SPEC_MAX_IO;
	expect = (!len || off % sector || len % sector ||
		  off > dev->size_byte || len > dev->size_byte - off) ?
		-EINVAL : 0;
	t0 = dev_now_ns(dev);
	switch (cmd[0] % 3) {
	case 0:
		ret = dev_read(dev, buf, len, (off_t)off, NULL);
		break;
	case 1:
		ret = dev_write(dev, buf, len, (off_t)off, NULL);
		break;
	default:
		ret = dev_discard(dev, (off_t)off, len, NULL);
		break;
	}
	t1 = dev_now_ns(dev);
	if (ret != expect)
		fuzz_fail("op %u of %llu bytes at %llu on a %llu-byte card: %d, expected %d",
			  cmd[0] % 3, (unsigned long long)len,
			  (unsigned long long)off,
			  (unsigned long long)dev->size_byte, ret, expect);
	if (t1 < t0)
		fuzz_fail("clock went from %llu to %llu ns",
			  (unsigned long long)t0, (unsigned long long)t1);
	if (ret && dev->last_error.err != -ret)
		fuzz_fail("error %d not recorded (last_error.err %d)", ret,
			  dev->last_error.err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static void *buf;
	struct sim_params p, before;
	struct device *dev;
	size_t spec_len = strnlen((const char *)data, size), i;
	char why[256], *spec;
	int ret;

	if (!buf) {
		buf = dev_alloc_buf(SPEC_MAX_IO);
		if (!buf)
			fuzz_fail("out of memory");
	}
	spec = malloc(spec_len + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, spec_len);
	spec[spec_len] = '\0';

	sim_params_default(&p);
	before = p;
	memset(why, 'x', sizeof(why));
	ret = sim_parse_spec(&p, spec, why, sizeof(why));
	if (ret) {
		if (ret != -EINVAL && ret != -ENOMEM)
			fuzz_fail("sim_parse_spec: %d", ret);
		if (memcmp(&p, &before, sizeof(p)))
			fuzz_fail("a refused spec changed the parameters");
		/* one line, unless it quotes a newline of the SPEC */
		if (!memchr(why, '\0', sizeof(why)) || !why[0] ||
		    (strchr(why, '\n') && !strchr(spec, '\n')))
			fuzz_fail("reason not one line: '%.*s'",
				  (int)sizeof(why), why);
		goto out_free_spec;
	}
	if (!memchr(why, '\0', sizeof(why)) || why[0])
		fuzz_fail("an accepted spec left a reason");
	ret = sim_open(&dev, &p);
	if (ret == -ENOMEM)
		goto out_free_spec;
	if (ret)
		fuzz_fail("sim_open refused an accepted spec: %d", ret);
	if (dev->size_byte != p.size_byte || dev->logical_block_size != 512)
		fuzz_fail("card of %llu bytes, %u-byte blocks from size=%llu",
			  (unsigned long long)dev->size_byte,
			  dev->logical_block_size,
			  (unsigned long long)p.size_byte);
	/* the same SPEC parsed again on top of itself changes nothing */
	before = p;
	if (sim_parse_spec(&p, spec, why, sizeof(why)) ||
	    memcmp(&p, &before, sizeof(p)))
		fuzz_fail("parsing an accepted spec twice differs");
	data += spec_len + 1;
	size = size > spec_len ? size - spec_len - 1 : 0;
	for (i = 0; i + 4 <= size && i < 4 * SPEC_MAX_CMDS; i += 4)
		play(dev, &p, buf, data + i);
	dev_close(dev);
out_free_spec:
	free(spec);
	return 0;
}
