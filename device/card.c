// SPDX-License-Identifier: GPL-2.0-only
/*
 * The card's own word: SD registers and the kernel's attributes, read from
 * sysfs (or a directory laid out like it) and decoded; an eMMC's EXT_CSD
 * beside them (extcsd.c decodes it).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "c.h"
#include "card.h"
#include "mmcioc.h"

const char *const card_file_names[CF_NR] = {
	[CF_CID] = "cid", [CF_CSD] = "csd", [CF_SCR] = "scr",
	[CF_SSR] = "ssr", [CF_TYPE] = "type", [CF_NAME] = "name",
	[CF_MANFID] = "manfid", [CF_OEMID] = "oemid", [CF_DATE] = "date",
	[CF_SERIAL] = "serial", [CF_HWREV] = "hwrev", [CF_FWREV] = "fwrev",
	[CF_PREFERRED_ERASE_SIZE] = "preferred_erase_size",
	[CF_ERASE_SIZE] = "erase_size", [CF_LIFE_TIME] = "life_time",
	[CF_PRE_EOL_INFO] = "pre_eol_info", [CF_VENDOR] = "vendor",
	[CF_MODEL] = "model",
};

/* AU_SIZE codes 1..15 in KiB. */
static const unsigned int au_kib[16] = {
	0, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 12288, 16384,
	24576, 32768, 65536,
};

/* SPEED_CLASS codes 0..4 as the class they state. */
static const int speed_classes[5] = { 0, 2, 4, 6, 10 };

/* ---- bits ---- */

int card_check_hex(const char *hex, unsigned int bits, char *why,
		   size_t len)
{
	size_t n = strlen(hex), i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)hex[i])) {
			snprintf(why, len, "'%c' at %zu is not a hex digit",
				 isprint((unsigned char)hex[i]) ? hex[i] : '?',
				 i + 1);
			return -EINVAL;
		}
	if (n != bits / 4) {
		snprintf(why, len, "%zu hex digits, not %u", n, bits / 4);
		return -EINVAL;
	}
	return 0;
}

static unsigned int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned int)(c - '0');
	return (unsigned int)(tolower((unsigned char)c) - 'a' + 10);
}

/* Bit b of a register of the given length: digit k holds 4 bits. */
static unsigned int bit_at(const char *hex, unsigned int bits, unsigned int b)
{
	unsigned int k = (bits - 1 - b) / 4;

	return (hex_value(hex[k]) >> (b % 4)) & 1;
}

uint32_t card_bits(const char *hex, unsigned int bits, unsigned int hi,
		   unsigned int lo)
{
	uint32_t v = 0;
	unsigned int b;

	for (b = hi + 1; b-- > lo;)
		v = (v << 1) | bit_at(hex, bits, b);
	return v;
}

void card_set_bits(char *hex, unsigned int bits, unsigned int hi,
		   unsigned int lo, uint32_t v)
{
	static const char digits[] = "0123456789abcdef";
	unsigned int b;

	for (b = lo; b <= hi; b++, v >>= 1) {
		unsigned int k = (bits - 1 - b) / 4;
		unsigned int d = hex_value(hex[k]);

		d = (d & ~(1u << (b % 4))) | ((v & 1) << (b % 4));
		hex[k] = digits[d];
	}
}

uint64_t card_au_byte(unsigned int code)
{
	return code < 16 ? (uint64_t)au_kib[code] << 10 : 0;
}

unsigned int card_au_code(uint64_t au_byte)
{
	unsigned int i;

	for (i = 1; i < 16; i++)
		if (card_au_byte(i) == au_byte)
			return i;
	return 0;
}

/* ---- decoding ---- */

static void note(struct card_info *ci, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct card_info *ci, const char *fmt, ...)
{
	va_list ap;

	if (ci->nr_notes >= CARD_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(ci->note[ci->nr_notes++], CARD_NOTE_MAX, fmt, ap);
	va_end(ap);
}

/* Is register f there and well formed?  Notes why not. */
static int usable(const struct card_raw *raw, enum card_file f,
		  unsigned int bits, struct card_info *ci)
{
	char why[64];

	if (raw->not_file[f])
		note(ci, "%s: %s, not a register file: not decoded",
		     card_file_names[f], raw->not_file[f] == CARD_IS_DIR ?
		     "a directory" : "not a regular file");
	if (!raw->have[f])
		return 0;
	if (!card_check_hex(raw->val[f], bits, why, sizeof(why)))
		return 1;
	note(ci, "%s: %s: not decoded", card_file_names[f], why);
	return 0;
}

static void decode_cid(const char *h, struct card_info *ci)
{
	struct card_cid *c = &ci->cid;
	unsigned int i;

	c->mid = card_bits(h, CARD_CID_BITS, 127, 120);
	c->oid = card_bits(h, CARD_CID_BITS, 119, 104);
	/* the name ends at a NUL, as the kernel's sysfs "name" shows it */
	for (i = 0; i < 5; i++) {
		unsigned int ch = card_bits(h, CARD_CID_BITS, 103 - 8 * i,
					    96 - 8 * i);

		if (!ch)
			break;
		c->pnm[i] = isprint((int)ch) ? (char)ch : '?';
	}
	c->pnm[i] = '\0';
	c->prv = card_bits(h, CARD_CID_BITS, 63, 56);
	c->psn = card_bits(h, CARD_CID_BITS, 55, 24);
	c->year = card_bits(h, CARD_CID_BITS, 19, 12) + 2000;
	c->month = card_bits(h, CARD_CID_BITS, 11, 8);
	if (c->month < 1 || c->month > 12)
		note(ci, "cid: manufacturing month %u is not a month",
		     c->month);
	ci->have_cid = 1;
}

static void decode_csd(const char *h, struct card_info *ci)
{
	struct card_csd *c = &ci->csd;
	uint64_t c_size;

	c->structure = card_bits(h, CARD_CSD_BITS, 127, 126);
	if (c->structure == 0) {
		unsigned int mult, bl_len;

		c_size = card_bits(h, CARD_CSD_BITS, 73, 62);
		mult = card_bits(h, CARD_CSD_BITS, 49, 47);
		bl_len = card_bits(h, CARD_CSD_BITS, 83, 80);
		c->capacity_byte = (c_size + 1) << (mult + 2 + bl_len);
	} else if (c->structure == 1) {
		c_size = card_bits(h, CARD_CSD_BITS, 69, 48);
		c->capacity_byte = (c_size + 1) * (512 << 10);
	} else {
		note(ci, "csd: structure %u (v%u) not decoded",
		     c->structure, c->structure + 1);
	}
	ci->have_csd = 1;
}

static void decode_scr(const char *h, struct card_info *ci)
{
	struct card_scr *s = &ci->scr;

	s->sd_spec = card_bits(h, CARD_SCR_BITS, 59, 56);
	s->data_after_erase = card_bits(h, CARD_SCR_BITS, 55, 55);
	s->spec3 = card_bits(h, CARD_SCR_BITS, 47, 47);
	s->spec4 = card_bits(h, CARD_SCR_BITS, 42, 42);
	s->specx = card_bits(h, CARD_SCR_BITS, 41, 38);
	ci->have_scr = 1;
}

static void decode_ssr_fields(const char *h, struct card_ssr *s)
{
	s->speed_class = card_bits(h, CARD_SSR_BITS, 447, 440);
	s->perf_move = card_bits(h, CARD_SSR_BITS, 439, 432);
	s->au_code = card_bits(h, CARD_SSR_BITS, 431, 428);
	s->erase_size = card_bits(h, CARD_SSR_BITS, 423, 408);
	s->erase_timeout = card_bits(h, CARD_SSR_BITS, 407, 402);
	s->erase_offset = card_bits(h, CARD_SSR_BITS, 401, 400);
	s->uhs_grade = card_bits(h, CARD_SSR_BITS, 399, 396);
	s->uhs_au_code = card_bits(h, CARD_SSR_BITS, 395, 392);
	s->video_class = card_bits(h, CARD_SSR_BITS, 391, 384);
	s->app_class = card_bits(h, CARD_SSR_BITS, 339, 336);
	s->discard = card_bits(h, CARD_SSR_BITS, 313, 313);
}

/* The classes the SSR states; reserved codes leave a class unknown. */
static void ssr_claims(struct card_info *ci)
{
	const struct card_ssr *s = &ci->ssr;
	struct card_claims *c = &ci->claims;
	unsigned int v = s->video_class;

	if (s->speed_class < 5)
		c->speed_class = speed_classes[s->speed_class];
	else
		note(ci, "ssr: SPEED_CLASS %u is reserved", s->speed_class);
	if (s->uhs_grade == 0 || s->uhs_grade == 1 || s->uhs_grade == 3)
		c->uhs_grade = (int)s->uhs_grade;
	else
		note(ci, "ssr: UHS_SPEED_GRADE %u is reserved", s->uhs_grade);
	if (v == 0 || v == 6 || v == 10 || v == 30 || v == 60 || v == 90)
		c->video_class = (int)v;
	else
		note(ci, "ssr: VIDEO_SPEED_CLASS %u is reserved", v);
	if (s->app_class <= 2)
		c->app_class = (int)s->app_class;
	else
		note(ci, "ssr: APP_PERF_CLASS %u is reserved", s->app_class);
}

static void ssr_au(struct card_info *ci)
{
	unsigned int code = ci->ssr.au_code, uhs = ci->ssr.uhs_au_code;

	if (code > 9 && ci->have_scr && !ci->scr.spec3)
		note(ci, "ssr: AU_SIZE %u is reserved without SD_SPEC3",
		     code);
	else
		ci->au_byte = card_au_byte(code);
	if (uhs >= 7)
		ci->uhs_au_byte = card_au_byte(uhs);
	else if (uhs)
		note(ci, "ssr: UHS_AU_SIZE %u is reserved", uhs);
}

static void decode_ssr(const char *h, struct card_info *ci)
{
	decode_ssr_fields(h, &ci->ssr);
	ci->have_ssr = 1;
	ssr_claims(ci);
	ssr_au(ci);
}

/* The kernel's number attribute ("0x000003"), or -1. */
static int64_t attr_number(const struct card_raw *raw, enum card_file f)
{
	unsigned long long v;
	char *end;

	if (!raw->have[f] || !raw->val[f][0])
		return -1;
	errno = 0;
	v = strtoull(raw->val[f], &end, 0);
	if (errno || *end || v > INT64_MAX)
		return -1;
	return (int64_t)v;
}

/* Identity from the kernel's attributes (eMMC, or no readable CID). */
static void kernel_identity(const struct card_raw *raw, struct card_info *ci)
{
	unsigned int m, y;
	int64_t hw = attr_number(raw, CF_HWREV), fw = attr_number(raw, CF_FWREV);

	ci->manfid = attr_number(raw, CF_MANFID);
	ci->oemid = attr_number(raw, CF_OEMID);
	ci->serial = attr_number(raw, CF_SERIAL);
	if (raw->have[CF_NAME])
		snprintf(ci->name, sizeof(ci->name), "%.15s",
			 raw->val[CF_NAME]);
	if (raw->have[CF_DATE] &&
	    sscanf(raw->val[CF_DATE], "%2u/%4u", &m, &y) == 2 &&
	    m <= 12 && y < 10000)
		snprintf(ci->date, sizeof(ci->date), "%04u-%02u", y, m);
	if (hw >= 0 && fw >= 0 && hw < 16 && fw < 16)
		snprintf(ci->revision, sizeof(ci->revision), "%u.%u",
			 (unsigned int)hw, (unsigned int)fw);
}

static void cid_identity(struct card_info *ci)
{
	const struct card_cid *c = &ci->cid;

	ci->manfid = c->mid;
	ci->oemid = c->oid;
	ci->serial = c->psn;
	snprintf(ci->name, sizeof(ci->name), "%s", c->pnm);
	snprintf(ci->revision, sizeof(ci->revision), "%u.%u", c->prv >> 4,
		 c->prv & 15);
	if (c->month >= 1 && c->month <= 12)
		snprintf(ci->date, sizeof(ci->date), "%04u-%02u", c->year,
			 c->month);
}

/* Is raw an eMMC's: the kernel says so, or an EXT_CSD is there? */
static int is_mmc(const struct card_raw *raw)
{
	return (raw->have[CF_TYPE] && !strcmp(raw->val[CF_TYPE], "MMC")) ||
	       raw->ext.form != EXT_CSD_NONE || raw->ext_err;
}

void card_decode(const struct card_raw *raw, struct card_info *ci)
{
	int mmc = is_mmc(raw);

	memset(ci, 0, sizeof(*ci));
	ci->manfid = ci->oemid = ci->serial = -1;
	ci->claims.speed_class = ci->claims.uhs_grade = -1;
	ci->claims.video_class = ci->claims.app_class = -1;
	if (mmc && raw->have[CF_CID])
		note(ci, "cid: eMMC layout, identity from the kernel's attributes");
	else if (usable(raw, CF_CID, CARD_CID_BITS, ci))
		decode_cid(raw->val[CF_CID], ci);
	if (!mmc && usable(raw, CF_CSD, CARD_CSD_BITS, ci))
		decode_csd(raw->val[CF_CSD], ci);
	if (usable(raw, CF_SCR, CARD_SCR_BITS, ci))
		decode_scr(raw->val[CF_SCR], ci);
	if (usable(raw, CF_SSR, CARD_SSR_BITS, ci))
		decode_ssr(raw->val[CF_SSR], ci);
	if (ci->have_cid)
		cid_identity(ci);
	else
		kernel_identity(raw, ci);
	ext_csd_decode(&raw->ext, &ci->ext);
}

/* ---- reading ---- */

/*
 * Read the first line of the regular file dir/name into buf, without
 * the white space around it.  Returns 0, -ENOENT (no such file or not
 * readable), or CARD_IS_DIR / CARD_NOT_REG when name is no regular file.
 */
static int read_line(const char *dir, const char *name, char *buf,
		     size_t len)
{
	char path[PATH_MAX];
	struct stat st;
	size_t n, lead;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (stat(path, &st))
		return -ENOENT;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? CARD_IS_DIR : CARD_NOT_REG;
	f = fopen(path, "r");
	if (!f)
		return -ENOENT;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	lead = strspn(buf, " \t");
	memmove(buf, buf + lead, n - lead + 1);
	return 0;
}

/* Say why the EXT_CSD could not be read; returns 1 (a file was there). */
static int ext_fail(struct card_raw *raw, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int ext_fail(struct card_raw *raw, int err, const char *fmt, ...)
{
	va_list ap;

	memset(&raw->ext, 0, sizeof(raw->ext));
	raw->ext_err = err;
	va_start(ap, fmt);
	vsnprintf(raw->ext_why, sizeof(raw->ext_why), fmt, ap);
	va_end(ap);
	return 1;
}

/* Longest ext_csd file read: 1,024 hex digits with white space. */
#define EXT_CSD_FILE_MAX	4096

/*
 * Read dir/ext_csd (debugfs's hex string or 512 raw bytes) into raw.
 * Returns 1 when the file is there, read or not (raw->ext_err), else 0.
 */
static int read_ext_csd(const char *dir, struct card_raw *raw)
{
	char path[PATH_MAX], buf[EXT_CSD_FILE_MAX + 1], why[CARD_NOTE_MAX];
	struct stat st;
	size_t n;
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/ext_csd", dir);
	if (stat(path, &st))
		return 0;
	if (!S_ISREG(st.st_mode))
		return ext_fail(raw, -EINVAL, "%s", S_ISDIR(st.st_mode) ?
				"a directory, not a register file" :
				"not a regular file");
	f = fopen(path, "rb");
	if (!f)
		return ext_fail(raw, -errno, "%s", strerror(errno));
	n = fread(buf, 1, sizeof(buf), f);
	bad = ferror(f);
	fclose(f);
	if (bad)
		return ext_fail(raw, -EIO, "%s", strerror(EIO));
	if (n > EXT_CSD_FILE_MAX)
		return ext_fail(raw, -EINVAL,
				"over %d bytes: neither 1024 hex digits nor 512 raw bytes",
				EXT_CSD_FILE_MAX);
	if (ext_csd_parse(buf, n, &raw->ext, why, sizeof(why)))
		return ext_fail(raw, -EINVAL, "%s", why);
	return 1;
}

size_t card_read_dir(const char *dir, enum card_source source,
		     struct card_raw *raw)
{
	size_t found = 0;
	int f;

	memset(raw, 0, sizeof(*raw));
	raw->source = source;
	for (f = 0; f < CF_NR; f++) {
		int ret = read_line(dir, card_file_names[f], raw->val[f],
				    sizeof(raw->val[f]));

		if (ret > 0)
			raw->not_file[f] = (unsigned char)ret;
		if (ret)
			continue;
		raw->have[f] = 1;
		found++;
	}
	return found + (size_t)read_ext_csd(dir, raw);
}

int card_is_sd_mmc(const struct card_raw *raw)
{
	int f;

	if (raw->ext.form != EXT_CSD_NONE || raw->ext_err)
		return 1;
	/* vendor and model are a SCSI/USB disk's, or any bus's (virtio) */
	for (f = 0; f < CF_NR; f++)
		if ((raw->have[f] || raw->not_file[f]) && f != CF_VENDOR &&
		    f != CF_MODEL)
			return 1;
	return 0;
}

size_t card_read_device(const char *path, struct card_raw *raw)
{
	char dir[PATH_MAX], probe[PATH_MAX + 16];
	struct stat st;
	size_t n;

	memset(raw, 0, sizeof(*raw));
	raw->source = CARD_NONE;
	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return 0;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u",
		 major(st.st_rdev), minor(st.st_rdev));
	snprintf(probe, sizeof(probe), "%s/partition", dir);
	if (!stat(probe, &st) && strlen(dir) + 3 < sizeof(dir))
		strcat(dir, "/..");
	if (strlen(dir) + 7 < sizeof(dir))
		strcat(dir, "/device");
	n = card_read_dir(dir, CARD_SYSFS, raw);
	if (raw->have[CF_TYPE] && !strcmp(raw->val[CF_TYPE], "MMC"))
		card_read_ext_csd(path, raw);
	return n;
}

int card_read_ext_csd(const char *path, struct card_raw *raw)
{
	raw->ext_err = ext_csd_read_device(path, &raw->ext, raw->ext_why,
					   sizeof(raw->ext_why));
	return raw->ext_err;
}

/*
 * Append the names of the registers missing from raw to buf: CID and CSD
 * of an eMMC (it has no SCR or SSR), all four of an SD card.
 */
static void list_missing(const struct card_raw *raw, char *buf, size_t len,
			 const char *head)
{
	int f, first = 1, last = is_mmc(raw) ? CF_CSD : CF_SSR;
	size_t n = 0;

	buf[0] = '\0';
	for (f = CF_CID; f <= last; f++) {
		if (raw->have[f] || raw->not_file[f] || n >= len)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      first ? head : ", ", card_file_names[f]);
		first = 0;
	}
}

static void sysfs_missing(const struct card_raw *raw, char *buf, size_t len)
{
	const char *type = raw->val[CF_TYPE];

	if (!raw->have[CF_TYPE] && (raw->have[CF_VENDOR] || raw->have[CF_MODEL]))
		snprintf(buf, len,
			 "behind a USB bridge the card's registers cannot be read (the reader says \"%s %s\")",
			 raw->val[CF_VENDOR], raw->val[CF_MODEL]);
	else if (!raw->have[CF_TYPE])
		snprintf(buf, len,
			 "the kernel shows no SD/MMC registers for this device (not on an SD/MMC host)");
	else if (!strcmp(type, "MMC") && raw->ext_err)
		snprintf(buf, len,
			 "eMMC keeps no SCR or SSR (they are SD registers); its EXT_CSD: %s",
			 raw->ext_why);
	else if (!strcmp(type, "MMC"))
		snprintf(buf, len,
			 "eMMC keeps no SCR or SSR (they are SD registers)");
	else if (!raw->have[CF_SSR] && raw->have[CF_CID] &&
		 raw->have[CF_CSD] && raw->have[CF_SCR])
		snprintf(buf, len,
			 "this kernel has no ssr (Linux 4.9 and later show it)");
	else
		list_missing(raw, buf, len, "the kernel does not show: ");
}

void card_missing(const struct card_raw *raw, char *buf, size_t len)
{
	buf[0] = '\0';
	switch (raw->source) {
	case CARD_NONE:
		snprintf(buf, len, "a regular file has no card registers");
		break;
	case CARD_SIM:
		if (!raw->have[CF_CID])
			snprintf(buf, len,
				 "the simulated card states no registers (SPEC keys claims= and au=)");
		break;
	case CARD_DIR:
		list_missing(raw, buf, len, "not in the directory: ");
		break;
	case CARD_SYSFS:
		sysfs_missing(raw, buf, len);
		break;
	}
}

/* ---- claims and the simulated card's registers ---- */

/* Store one claim such as "C10" into c; 0 or -EINVAL. */
static int one_claim(const char *t, size_t n, struct card_claims *c,
		     char *why, size_t len)
{
	static const struct { char fam; int v; } ok[] = {
		{ 'C', 2 }, { 'C', 4 }, { 'C', 6 }, { 'C', 10 }, { 'U', 1 },
		{ 'U', 3 }, { 'V', 6 }, { 'V', 10 }, { 'V', 30 }, { 'V', 60 },
		{ 'V', 90 }, { 'A', 1 }, { 'A', 2 },
	};
	char tok[8];
	size_t i;
	int *slot;

	snprintf(tok, sizeof(tok), "%.*s", (int)(n < 7 ? n : 7), t);
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		char name[8];

		snprintf(name, sizeof(name), "%c%d", ok[i].fam, ok[i].v);
		if (n == strlen(name) && !strncasecmp(t, name, n))
			break;
	}
	if (i == ARRAY_SIZE(ok)) {
		snprintf(why, len,
			 "'%s' is not a class (C2 C4 C6 C10 U1 U3 V6 V10 V30 V60 V90 A1 A2)",
			 tok);
		return -EINVAL;
	}
	slot = ok[i].fam == 'C' ? &c->speed_class : ok[i].fam == 'U' ?
	       &c->uhs_grade : ok[i].fam == 'V' ? &c->video_class :
	       &c->app_class;
	if (*slot) {
		snprintf(why, len, "'%s': a card states one class of each kind",
			 tok);
		return -EINVAL;
	}
	*slot = ok[i].v;
	return 0;
}

int card_parse_claims(const char *s, struct card_claims *c, char *why,
		      size_t len)
{
	memset(c, 0, sizeof(*c));
	if (!strcmp(s, "none"))
		return 0;
	for (;;) {
		size_t n = strcspn(s, "+");

		if (one_claim(s, n, c, why, len))
			return -EINVAL;
		if (!s[n])
			return 0;
		s += n + 1;
	}
}

/* The preferred erase size the kernel sets: the AU, else a guess. */
uint64_t card_kernel_pref(uint64_t size_byte, uint64_t au_byte)
{
	uint64_t mib = size_byte >> 20;

	if (au_byte)
		return au_byte;
	return mib < 128 ? 512 << 10 : mib < 512 ? 1 << 20 :
	       mib < 1024 ? 2 << 20 : 4 << 20;
}

static void build_cid(char *h, uint64_t serial)
{
	static const char pnm[] = "SIMSD";
	unsigned int i;

	memset(h, '0', CARD_CID_BITS / 4);
	h[CARD_CID_BITS / 4] = '\0';
	card_set_bits(h, CARD_CID_BITS, 127, 120, 0x7e);
	card_set_bits(h, CARD_CID_BITS, 119, 104, ('F' << 8) | 'B');
	for (i = 0; i < 5; i++)
		card_set_bits(h, CARD_CID_BITS, 103 - 8 * i, 96 - 8 * i,
			      (uint32_t)pnm[i]);
	card_set_bits(h, CARD_CID_BITS, 63, 56, 0x10);
	card_set_bits(h, CARD_CID_BITS, 55, 24, (uint32_t)serial);
	card_set_bits(h, CARD_CID_BITS, 19, 12, 26);
	card_set_bits(h, CARD_CID_BITS, 11, 8, 1);
	card_set_bits(h, CARD_CID_BITS, 0, 0, 1);
}

static void build_csd(char *h, uint64_t size_byte)
{
	uint64_t c_size = size_byte / (512 << 10);

	memset(h, '0', CARD_CSD_BITS / 4);
	h[CARD_CSD_BITS / 4] = '\0';
	card_set_bits(h, CARD_CSD_BITS, 127, 126, 1);
	card_set_bits(h, CARD_CSD_BITS, 83, 80, 9);
	if (c_size > (1u << 22))
		c_size = 1u << 22;
	card_set_bits(h, CARD_CSD_BITS, 69, 48,
		      (uint32_t)(c_size ? c_size - 1 : 0));
	card_set_bits(h, CARD_CSD_BITS, 0, 0, 1);
}

static void build_scr(char *h, const struct card_claims *c)
{
	unsigned int specx = c->app_class == 2 ? 2 :
			     c->app_class || c->video_class ? 1 : 0;

	memset(h, '0', CARD_SCR_BITS / 4);
	h[CARD_SCR_BITS / 4] = '\0';
	card_set_bits(h, CARD_SCR_BITS, 59, 56, 2);
	card_set_bits(h, CARD_SCR_BITS, 51, 48, 5);	/* 1 and 4 bit bus */
	card_set_bits(h, CARD_SCR_BITS, 47, 47, 1);
	card_set_bits(h, CARD_SCR_BITS, 42, 42, specx ? 1 : 0);
	card_set_bits(h, CARD_SCR_BITS, 41, 38, specx);
}

static void build_ssr(char *h, uint64_t au_byte, const struct card_claims *c)
{
	unsigned int code = card_au_code(au_byte), i;

	memset(h, '0', CARD_SSR_BITS / 4);
	h[CARD_SSR_BITS / 4] = '\0';
	card_set_bits(h, CARD_SSR_BITS, 511, 510, 2);	/* 4 bit bus */
	for (i = 0; i < 5; i++)
		if (speed_classes[i] == c->speed_class)
			card_set_bits(h, CARD_SSR_BITS, 447, 440, i);
	card_set_bits(h, CARD_SSR_BITS, 431, 428, code);
	if (code) {
		card_set_bits(h, CARD_SSR_BITS, 423, 408, 1);
		card_set_bits(h, CARD_SSR_BITS, 407, 402, 1);
		card_set_bits(h, CARD_SSR_BITS, 401, 400, 1);
	}
	card_set_bits(h, CARD_SSR_BITS, 399, 396, (uint32_t)c->uhs_grade);
	if (c->uhs_grade && code >= 7)
		card_set_bits(h, CARD_SSR_BITS, 395, 392, code);
	card_set_bits(h, CARD_SSR_BITS, 391, 384, (uint32_t)c->video_class);
	card_set_bits(h, CARD_SSR_BITS, 339, 336, (uint32_t)c->app_class);
	card_set_bits(h, CARD_SSR_BITS, 313, 313, 1);
}

void card_build(struct card_raw *raw, uint64_t size_byte, uint64_t au_byte,
		const struct card_claims *c, uint64_t serial)
{
	memset(raw, 0, sizeof(*raw));
	raw->source = CARD_SIM;
	build_cid(raw->val[CF_CID], serial);
	build_csd(raw->val[CF_CSD], size_byte);
	build_scr(raw->val[CF_SCR], c);
	build_ssr(raw->val[CF_SSR], au_byte, c);
	snprintf(raw->val[CF_TYPE], CARD_VAL_MAX, "SD");
	snprintf(raw->val[CF_NAME], CARD_VAL_MAX, "SIMSD");
	snprintf(raw->val[CF_MANFID], CARD_VAL_MAX, "0x00007e");
	snprintf(raw->val[CF_OEMID], CARD_VAL_MAX, "0x4642");
	snprintf(raw->val[CF_DATE], CARD_VAL_MAX, "01/2026");
	snprintf(raw->val[CF_SERIAL], CARD_VAL_MAX, "0x%08" PRIx32,
		 (uint32_t)serial);
	snprintf(raw->val[CF_HWREV], CARD_VAL_MAX, "0x1");
	snprintf(raw->val[CF_FWREV], CARD_VAL_MAX, "0x0");
	snprintf(raw->val[CF_PREFERRED_ERASE_SIZE], CARD_VAL_MAX, "%" PRIu64,
		 card_kernel_pref(size_byte, au_byte));
	snprintf(raw->val[CF_ERASE_SIZE], CARD_VAL_MAX, "512");
	memset(raw->have, 1, CF_LIFE_TIME);
}
