// SPDX-License-Identifier: GPL-2.0-only
/*
 * An eMMC's EXT_CSD register: found in the text or bytes of an ext_csd
 * file and decoded with JEDEC JESD84-B51's offsets and units.  The known
 * pitfalls are written into the table: CACHE_SIZE counts kibibits (1024
 * bits, 128 bytes), not KiB; ACC_SIZE's super-page is 512 B x 2^(n-1);
 * LARGE_UNIT_SIZE_M1 is n+1 MiB; OPTIMAL_TRIM_UNIT_SIZE is 4 KiB x
 * 2^(n-1) while the optimal write and read sizes are 4 KiB x n; the
 * command queue is CMDQ_DEPTH + 1 deep.  The optimal sizes and the health
 * fields came with eMMC 5.0 (EXT_CSD_REV 7), the command queue with 5.1.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "c.h"
#include "extcsd.h"

#define OFF_S_CMD_SET		504	/* bit 0: the standard MMC set */
#define OFF_EXT_CSD_REV		192
#define OFF_FIRMWARE_VERSION	254	/* 8 bytes */
#define REV_MAX_KNOWN		8	/* eMMC 5.1 */
#define CMDQ_DEPTH_MASK		0x1f
#define TWO_GIB			(2ULL << 30)

#define F(n, b, off, l, m, rev, z, u) \
	{ .name = n, .bytes_name = b, .offset = off, .len = l, .mask = m, \
	  .min_rev = rev, .zero_null = z, .unit = u }

const struct ext_csd_desc ext_csd_fields[ECF_NR] = {
	[ECF_EXT_CSD_REV] = F("ext_csd_rev", NULL, 192, 1, 0, 0, 0, EU_NONE),
	[ECF_SEC_COUNT] = F("sec_count", "sec_count_bytes", 212, 4, 0, 2, 1,
			    EU_SECTORS),
	[ECF_DEVICE_TYPE] = F("device_type", NULL, 196, 1, 0, 0, 0, EU_NONE),
	[ECF_HC_ERASE_GRP_SIZE] = F("hc_erase_grp_size",
				    "hc_erase_grp_size_bytes", 224, 1, 0, 3,
				    1, EU_512K),
	[ECF_HC_WP_GRP_SIZE] = F("hc_wp_grp_size", "hc_wp_grp_size_bytes",
				 221, 1, 0, 3, 1, EU_WP_GROUP),
	[ECF_ERASE_GROUP_DEF] = F("erase_group_def", NULL, 175, 1, 0, 3, 0,
				  EU_NONE),
	[ECF_ACC_SIZE] = F("acc_size", "super_page_bytes", 225, 1, 0x0f, 3, 1,
			   EU_SUPER_PAGE),
	[ECF_OPTIMAL_WRITE_SIZE] = F("optimal_write_size",
				     "optimal_write_size_bytes", 265, 1, 0, 7,
				     1, EU_4K),
	[ECF_OPTIMAL_READ_SIZE] = F("optimal_read_size",
				    "optimal_read_size_bytes", 266, 1, 0, 7, 1,
				    EU_4K),
	[ECF_OPTIMAL_TRIM_UNIT_SIZE] = F("optimal_trim_unit_size",
					 "optimal_trim_unit_size_bytes", 264,
					 1, 0, 7, 1, EU_4K_POW2),
	[ECF_LARGE_UNIT_SIZE_M1] = F("large_unit_size_m1",
				     "large_unit_size_bytes", 495, 1, 0, 6, 0,
				     EU_MIB_M1),
	[ECF_DATA_SECTOR_SIZE] = F("data_sector_size",
				   "data_sector_size_bytes", 61, 1, 0, 6, 0,
				   EU_DATA_SECTOR),
	[ECF_CACHE_SIZE] = F("cache_size", "cache_size_bytes", 249, 4, 0, 6,
			     0, EU_KIBIBIT),
	[ECF_CACHE_CTRL] = F("cache_ctrl", NULL, 33, 1, 0, 6, 0, EU_NONE),
	[ECF_PARTITIONING_SUPPORT] = F("partitioning_support", NULL, 160, 1,
				       0, 4, 0, EU_NONE),
	[ECF_MAX_ENH_SIZE_MULT] = F("max_enh_size_mult", "max_enh_size_bytes",
				    157, 3, 0, 4, 0, EU_ENH),
	[ECF_PARTITIONS_ATTRIBUTE] = F("partitions_attribute", NULL, 156, 1,
				       0, 4, 0, EU_NONE),
	[ECF_PARTITION_SETTING_COMPLETED] = F("partition_setting_completed",
					      NULL, 155, 1, 0, 4, 0, EU_NONE),
	[ECF_ENH_SIZE_MULT] = F("enh_size_mult", "enh_size_bytes", 140, 3, 0,
				4, 0, EU_ENH),
	[ECF_ENH_START_ADDR] = F("enh_start_addr", "enh_start_addr_bytes",
				 136, 4, 0, 4, 0, EU_ADDRESS),
	[ECF_BOOT_SIZE_MULT] = F("boot_size_mult", "boot_size_bytes", 226, 1,
				 0, 3, 0, EU_128K),
	[ECF_RPMB_SIZE_MULT] = F("rpmb_size_mult", "rpmb_size_bytes", 168, 1,
				 0, 4, 0, EU_128K),
	[ECF_SEC_FEATURE_SUPPORT] = F("sec_feature_support", NULL, 231, 1, 0,
				      4, 0, EU_NONE),
	[ECF_DEVICE_LIFE_TIME_EST_TYP_A] = F("device_life_time_est_typ_a",
					     NULL, 268, 1, 0, 7, 1, EU_NONE),
	[ECF_DEVICE_LIFE_TIME_EST_TYP_B] = F("device_life_time_est_typ_b",
					     NULL, 269, 1, 0, 7, 1, EU_NONE),
	[ECF_PRE_EOL_INFO] = F("pre_eol_info", NULL, 267, 1, 0, 7, 1, EU_NONE),
	[ECF_SUPPORTED_MODES] = F("supported_modes", NULL, 493, 1, 0, 7, 0,
				  EU_NONE),
	[ECF_FW_CONFIG] = F("fw_config", NULL, 169, 1, 0, 5, 0, EU_NONE),
	[ECF_CMDQ_SUPPORT] = F("cmdq_support", NULL, 308, 1, 0, 8, 0, EU_NONE),
	[ECF_CMDQ_DEPTH] = F("cmdq_depth", NULL, 307, 1, CMDQ_DEPTH_MASK, 8, 0,
			     EU_NONE),
};

#undef F

/* ---- finding the bytes ---- */

/* Does b look like an EXT_CSD read byte 0 first?  2: surely, 1: maybe. */
static int looks_forward(const uint8_t *b)
{
	if (!(b[OFF_S_CMD_SET] & 1))
		return 0;
	return b[OFF_EXT_CSD_REV] <= REV_MAX_KNOWN ? 2 : 1;
}

static void reverse_bytes(uint8_t *b)
{
	size_t i;

	for (i = 0; i < EXT_CSD_BYTES / 2; i++) {
		uint8_t t = b[i];

		b[i] = b[EXT_CSD_BYTES - 1 - i];
		b[EXT_CSD_BYTES - 1 - i] = t;
	}
}

/* Is every byte of s accepted by ok (a character class)? */
static int all_are(const unsigned char *s, size_t len, int (*ok)(int))
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!ok(s[i]) && !isspace(s[i]))
			return 0;
	return 1;
}

static unsigned int digit(unsigned char c)
{
	return isdigit(c) ? (unsigned int)(c - '0') :
	       (unsigned int)(tolower(c) - 'a' + 10);
}

/* The hex digits of s into raw->b (byte 0 first as written). */
static int parse_hex(const unsigned char *s, size_t len,
		     struct ext_csd_raw *raw, char *why, size_t why_len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (isspace(s[i]))
			continue;
		if (!isxdigit(s[i])) {
			snprintf(why, why_len,
				 "byte %zu ('%c') is not a hex digit", i + 1,
				 isprint(s[i]) ? s[i] : '?');
			return -EINVAL;
		}
		if (n < 2 * EXT_CSD_BYTES)
			raw->b[n / 2] = (uint8_t)((raw->b[n / 2] << 4) |
						  digit(s[i]));
		n++;
	}
	if (n != 2 * EXT_CSD_BYTES) {
		snprintf(why, why_len,
			 "%zu hex digits, not 1024 (512 bytes) nor 512 raw bytes",
			 n);
		return -EINVAL;
	}
	return 0;
}

/* Which way round a hex string was printed; 0 or -EINVAL. */
static int hex_order(struct ext_csd_raw *raw, char *why, size_t why_len)
{
	uint8_t rev[EXT_CSD_BYTES];
	int fwd, back;

	memcpy(rev, raw->b, sizeof(rev));
	reverse_bytes(rev);
	fwd = looks_forward(raw->b);
	back = looks_forward(rev);
	if (!fwd && !back) {
		snprintf(why, why_len,
			 "not an EXT_CSD in either byte order (S_CMD_SET, byte 504, lacks bit 0: 0x%02x first to last, 0x%02x last to first)",
			 raw->b[OFF_S_CMD_SET], rev[OFF_S_CMD_SET]);
		return -EINVAL;
	}
	if (back > fwd) {
		memcpy(raw->b, rev, sizeof(rev));
		raw->form = EXT_CSD_HEX_REVERSED;
	} else {
		raw->form = EXT_CSD_HEX;
	}
	return 0;
}

int ext_csd_parse(const void *buf, size_t len, struct ext_csd_raw *raw,
		  char *why, size_t why_len)
{
	const unsigned char *s = buf;

	memset(raw, 0, sizeof(*raw));
	if (len == EXT_CSD_BYTES && !all_are(s, len, isxdigit)) {
		memcpy(raw->b, s, EXT_CSD_BYTES);
		if (!looks_forward(raw->b)) {
			snprintf(why, why_len,
				 "512 bytes that are not an EXT_CSD (S_CMD_SET, byte 504, is 0x%02x: bit 0 is set on every eMMC)",
				 raw->b[OFF_S_CMD_SET]);
			return -EINVAL;
		}
		raw->form = EXT_CSD_BINARY;
		return 0;
	}
	if (!all_are(s, len, isprint)) {
		snprintf(why, why_len,
			 "%zu bytes, neither 1024 hex digits nor 512 raw bytes",
			 len);
		return -EINVAL;
	}
	if (parse_hex(s, len, raw, why, why_len))
		return -EINVAL;
	return hex_order(raw, why, why_len);
}

/* ---- decoding ---- */

static void note(struct ext_csd_info *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct ext_csd_info *e, const char *fmt, ...)
{
	va_list ap;

	if (e->nr_notes >= EXT_CSD_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(e->note[e->nr_notes++], EXT_CSD_NOTE_MAX, fmt, ap);
	va_end(ap);
}

/* The field as read: len bytes from offset, little-endian. */
static uint64_t field_value(const struct ext_csd_raw *raw,
			    const struct ext_csd_desc *d)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = d->len; i-- > 0;)
		v = (v << 8) | raw->b[d->offset + i];
	return v;
}

/* The raw value of a field of e, 0 when not defined. */
static uint64_t defined_value(const struct ext_csd_info *e,
			      enum ext_csd_field f)
{
	return e->defined[f] ? e->value[f] : 0;
}

/*
 * The size n stands for in unit u (n already masked), 0 when it is a
 * reserved code or depends on a field the device does not state.
 */
static uint64_t unit_bytes(const struct ext_csd_info *e, enum ext_csd_unit u,
			   uint64_t n)
{
	uint64_t erase = defined_value(e, ECF_HC_ERASE_GRP_SIZE) << 19;
	uint64_t wp = defined_value(e, ECF_HC_WP_GRP_SIZE);

	switch (u) {
	case EU_SECTORS:
		return n << 9;
	case EU_512K:
		return n << 19;
	case EU_WP_GROUP:
		return n * erase;
	case EU_ENH:
		return n * wp * erase;
	case EU_SUPER_PAGE:
		return n >= 1 && n <= 8 ? 512ULL << (n - 1) : 0;
	case EU_4K:
		return n << 12;
	case EU_4K_POW2:
		return n >= 1 && n <= 21 ? 4096ULL << (n - 1) : 0;
	case EU_MIB_M1:
		return (n + 1) << 20;
	case EU_KIBIBIT:
		return n * 128;
	case EU_128K:
		return n << 17;
	case EU_DATA_SECTOR:
		return n == 0 ? 512 : n == 1 ? 4096 : 0;
	case EU_ADDRESS:
		return defined_value(e, ECF_SEC_COUNT) << 9 > TWO_GIB ?
		       n << 9 : n;
	case EU_NONE:
		break;
	}
	return 0;
}

/* Whether a size of 0 bytes is a real size (none) or a failure. */
static int zero_size_ok(enum ext_csd_unit u, uint64_t n)
{
	return n == 0 && u != EU_SUPER_PAGE && u != EU_4K_POW2 &&
	       u != EU_DATA_SECTOR;
}

static void decode_field(const struct ext_csd_raw *raw,
			 struct ext_csd_info *e, enum ext_csd_field f)
{
	const struct ext_csd_desc *d = &ext_csd_fields[f];
	uint64_t v = field_value(raw, d);
	uint64_t n = d->mask ? v & d->mask : v;

	if (e->rev < d->min_rev || (d->zero_null && !n))
		return;
	e->defined[f] = 1;
	e->value[f] = v;
	if (d->unit == EU_NONE)
		return;
	e->bytes[f] = unit_bytes(e, d->unit, n);
	e->has_bytes[f] = e->bytes[f] || zero_size_ok(d->unit, n);
}

/* The command queue: its depth only where the device has one. */
static void decode_cmdq(struct ext_csd_info *e)
{
	if (!e->defined[ECF_CMDQ_DEPTH])
		return;
	if (!(defined_value(e, ECF_CMDQ_SUPPORT) & 1)) {
		e->defined[ECF_CMDQ_DEPTH] = 0;
		return;
	}
	e->value[ECF_CMDQ_DEPTH] = (e->value[ECF_CMDQ_DEPTH] &
				    CMDQ_DEPTH_MASK) + 1;
}

static void decode_firmware(const struct ext_csd_raw *raw,
			    struct ext_csd_info *e)
{
	const uint8_t *fw = raw->b + OFF_FIRMWARE_VERSION;
	size_t i;
	int any = 0;

	for (i = 0; i < 8; i++)
		any |= fw[i];
	if (e->rev < 7 || !any)
		return;
	for (i = 0; i < 8; i++)
		snprintf(e->firmware + 2 * i, 3, "%02x", fw[i]);
}

/* Reserved codes and sizes that depend on a field not stated. */
static void check_codes(struct ext_csd_info *e)
{
	enum ext_csd_field f;

	if (e->rev > REV_MAX_KNOWN)
		note(e, "ext_csd: EXT_CSD_REV %u is newer than eMMC 5.1 (8): decoded as 5.1",
		     e->rev);
	for (f = 0; f < ECF_NR; f++)
		if (e->defined[f] && ext_csd_fields[f].unit != EU_NONE &&
		    !e->has_bytes[f])
			note(e, "ext_csd: %s %#" PRIx64 " is a reserved code or needs a size the device does not state",
			     ext_csd_fields[f].name, e->value[f]);
	if (e->defined[ECF_PRE_EOL_INFO] && e->value[ECF_PRE_EOL_INFO] > 3)
		note(e, "ext_csd: PRE_EOL_INFO %#" PRIx64 " is reserved",
		     e->value[ECF_PRE_EOL_INFO]);
	for (f = ECF_DEVICE_LIFE_TIME_EST_TYP_A;
	     f <= ECF_DEVICE_LIFE_TIME_EST_TYP_B; f++)
		if (e->defined[f] && e->value[f] > 11)
			note(e, "ext_csd: %s %#" PRIx64 " is reserved",
			     ext_csd_fields[f].name, e->value[f]);
}

void ext_csd_decode(const struct ext_csd_raw *raw, struct ext_csd_info *e)
{
	enum ext_csd_field f;

	memset(e, 0, sizeof(*e));
	if (raw->form == EXT_CSD_NONE)
		return;
	e->have = 1;
	e->form = raw->form;
	e->rev = raw->b[OFF_EXT_CSD_REV];
	/* in table order: each size needs only the fields before it */
	for (f = 0; f < ECF_NR; f++)
		decode_field(raw, e, f);
	decode_cmdq(e);
	decode_firmware(raw, e);
	check_codes(e);
}

int ext_csd_get(const struct ext_csd_info *e, enum ext_csd_field f,
		uint64_t *v)
{
	if (!e->have || !e->defined[f])
		return 0;
	*v = e->value[f];
	return 1;
}

uint64_t ext_csd_bytes(const struct ext_csd_info *e, enum ext_csd_field f)
{
	return e->have && e->defined[f] && e->has_bytes[f] ? e->bytes[f] : 0;
}

/* ---- in words ---- */

const char *ext_csd_version(unsigned int rev)
{
	static const char *const v[] = {
		"4.0", "4.1", "4.2", "4.3", "4.4", "4.41",
		"4.5", "5.0", "5.1",
	};

	return rev < ARRAY_SIZE(v) ? v[rev] : NULL;
}

const char *ext_csd_form_text(enum ext_csd_form form)
{
	switch (form) {
	case EXT_CSD_HEX:
		return "hex string, byte 0 first";
	case EXT_CSD_HEX_REVERSED:
		return "hex string, byte 511 first (pre-2013 kernel)";
	case EXT_CSD_BINARY:
		return "512 raw bytes";
	case EXT_CSD_IOCTL:
		return "read from the device (CMD8)";
	case EXT_CSD_NONE:
		break;
	}
	return "not read";
}

char *ext_csd_life_text(char *buf, size_t len, uint64_t v)
{
	if (v >= 1 && v <= 10)
		snprintf(buf, len, "%u-%u %%", (unsigned int)(v - 1) * 10,
			 (unsigned int)v * 10);
	else
		snprintf(buf, len, "%s", v == 11 ? "exceeded" :
			 v ? "reserved" : "not stated");
	return buf;
}

const char *ext_csd_pre_eol_text(uint64_t v)
{
	static const char *const t[] = {
		"not stated", "normal", "warning", "urgent",
	};

	return v < ARRAY_SIZE(t) ? t[v] : "reserved";
}

char *ext_csd_health(char *buf, size_t len, const struct ext_csd_info *e)
{
	static const char type[] = "AB";
	enum ext_csd_field f;
	char life[32];
	uint64_t v;
	size_t n = 0;

	buf[0] = '\0';
	for (f = ECF_DEVICE_LIFE_TIME_EST_TYP_A;
	     f <= ECF_DEVICE_LIFE_TIME_EST_TYP_B && n < len; f++) {
		if (!ext_csd_get(e, f, &v))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s (type %c)",
				      n ? ", " : "life time used ",
				      ext_csd_life_text(life, sizeof(life), v),
				      type[f - ECF_DEVICE_LIFE_TIME_EST_TYP_A]);
	}
	if (n < len && ext_csd_get(e, ECF_PRE_EOL_INFO, &v))
		snprintf(buf + n, len - n, "%spre-EOL %s", n ? ", " : "",
			 ext_csd_pre_eol_text(v));
	return buf;
}
