/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Save what a writing test overwrites and put it back: --preserve,
 * --journal=FILE and --restore=JOURNAL.
 *
 * Before the first write, preserve_save() reads every range the test
 * announced into memory and into a journal file, fsync'd with its
 * directory; behind a guard (preserve_wrap()) it only plans the journal
 * (version 3) and each range is read and journalled, synced, just
 * before the run first writes into it (a wraparound's range that reads
 * what the run wrote at another block gets that block's saved data;
 * preserve_save_sparse(): a long range by the MiB).  When the test
 * ends, fails or is interrupted, preserve_restore() reads each run of
 * blocks the test wrote (the journal's state says which) and writes back
 * those that no longer read as saved, reads every range back to verify
 * and only then removes the journal.  After a crash or power loss,
 * preserve_restore_journal() does the same from the journal alone,
 * refusing a journal made on another device or of ranges written since.
 *
 * None of this is timed: the backup is taken before the test and written
 * back after it, with untimed reads and writes, so measured speeds never
 * include it.  Functions return 0 or -errno and never print; where they
 * take a why buffer they put a one-line reason there on failure.
 *
 * Signals.  Nothing here may be called from a signal handler.  The front
 * end's handler sets the flag it gave dev_set_stop_flag() (dev.h), which
 * makes the test's next I/O fail with EINTR; the test returns within
 * one I/O, and the front end stops watching the flag
 * (dev_set_stop_flag(NULL)) and calls preserve_restore() from normal
 * context.  preserve_restore() blocks SIGINT, SIGTERM and SIGHUP while
 * it writes, so a second ^C cannot cut a restore in half (SIGKILL and
 * power loss are what the journal is for).
 *
 * Journal format (version 2, all integers little-endian; version 3 as
 * noted):
 *   header  192 bytes: magic "FBJOURNL", u32 version, u32 logical block
 *           size, u64 device size, u64 fingerprint, u64 number of
 *           ranges, u64 data bytes, u64 creation time (s since the
 *           epoch), char[128] device path (NUL-padded, for messages
 *           only), u64 hash of the 184 bytes before it;
 *   records one per range: u64 offset, u64 length, u64 hash of
 *           (offset, length, data) (version 3: of offset and length),
 *           then length bytes of data (version 3: a hole until saved);
 *   trailer 24 bytes: magic "FBJ-END\n", u64 number of ranges, u64 hash
 *           of the header hash and every record hash;
 *   state   (from version 2) magic "FBJSTATE", u64 number of blocks
 *           (logical blocks of all ranges, in record order), then per
 *           block (version 3: u64 tag of the saved data, 0 while not
 *           saved) u64 prev, u64 last: hashes of the block's contents
 *           (seeded with its offset) before and after the latest write
 *           into it.  Updated in place, before each write of the run
 *           reaches the device (preserve_wrap()), and before the
 *           restore writes back; not covered by the trailer's hash.  A
 *           block whose prev and last are both its saved contents was
 *           not written by the run and is not written back.
 * A journal is complete only with its trailer and only if its size is
 * exactly what the header and records say.  Version 1 journals (no
 * state) are read, but restored only when forced.
 *
 * Before --restore writes anything, every block of the ranges must hold
 * its prev or its last contents (a write cut short by the crash leaves
 * either), or, on a fake card that maps two addresses to one place, the
 * prev or last of another block of the ranges (not a block of one byte
 * value throughout): anything else was written after the run, and
 * restoring would destroy it.  Such a card's writes show in the
 * fingerprint's windows too: a fingerprint that differs is accepted when
 * blocks hold what the run wrote, some of them at other blocks.
 *
 * Fingerprint: a 64-bit hash of the device size, the logical block size
 * and the contents of sample windows (the first and last MiB, where
 * partition tables live, and 30 windows of 64 KiB spread evenly), with
 * every byte inside a saved range counted as zero: the test overwrites
 * those, the rest of the device it never touches.  The device path is
 * not part of it (a card may come back as /dev/sdc instead of /dev/sdb).
 * Two blank cards of one size look alike; nothing can tell them apart.
 * The hashes guard against accidents (truncation, bit rot, the wrong
 * card), not against someone forging a journal.
 */
#ifndef FLASHBENCH_PRESERVE_H
#define FLASHBENCH_PRESERVE_H

#include <stddef.h>
#include <stdint.h>

#include "ranges.h"
#include "dev.h"

/* The journal format version this code writes and reads. */
#define PRESERVE_VERSION	3

/* Saved ranges of one device, in memory and in a journal. */
struct preserve;

/*
 * The default journal path for a device: "./flashbench-NAME.journal"
 * where NAME is the device path's last component, with anything but
 * letters, digits, '.', '-' and '_' replaced by '_'.  Returns 0 or
 * -ENAMETOOLONG.
 */
int preserve_journal_name(char *buf, size_t len, const char *dev_path);

/*
 * Can a new journal be made at path?  Returns 0 when nothing is there,
 * else -EEXIST (or -errno when path cannot be examined) with a one-line
 * reason in why.  preserve_save() checks the same.
 */
int preserve_check_journal(const char *path, char *why, size_t why_len);

/*
 * Read the n ranges (aligned to the logical block size, inside the
 * device) of dev into memory and into a new journal at journal_path,
 * fsync'd with its directory.  Refuses (-EEXIST) to replace an existing
 * journal: it may hold the only copy of another run's data.  dev must
 * stay open until preserve_free().  Returns 0 or -errno (-EINVAL for a
 * bad range, device errors as recorded in dev->last_error).
 */
int preserve_save(struct preserve **pp, struct device *dev,
		  const struct bench_range *ranges, size_t n,
		  const char *journal_path, char *why, size_t why_len);

/*
 * preserve_save() for a test that may write only parts of long ranges
 * and never writes data it read elsewhere (--capacity): behind a guard,
 * a long range is saved by the MiB, each piece as the run first writes
 * into it.  A test that writes copies (the class check's random writes
 * send what its random reads read) must not use it: a piece saved after
 * a copy of its contents went elsewhere looks like a wraparound's alias
 * of that place, and would get that place's saved data.
 */
int preserve_save_sparse(struct preserve **pp, struct device *dev,
			 const struct bench_range *ranges, size_t n,
			 const char *journal_path, char *why, size_t why_len);

/*
 * Write back what was saved of every block the run wrote (its state is
 * no longer the saved contents twice; every block of a journal loaded
 * with force, or of version 1), read every range back and compare, then
 * remove the journal.  Written blocks less than 1 MiB apart in one range
 * go back in one write, the blocks between included: they still hold
 * what was saved.  When a block not written reads back other than saved
 * (a fake card), every block is written back and verified again, as
 * below.  Keeps going past a failed write so as much as possible is
 * restored; the journal stays unless everything verified.  Returns 0,
 * -EIO if data read back differs (preserve_losses() says where and
 * how), or the first -errno.
 *
 * The blocks are written back from the highest down: on a fake card the
 * high ones are those it may not keep, and the low ones written after
 * them push them out of a write cache, so that reading back finds what
 * the flash kept, not what the cache still holds.
 */
int preserve_restore(struct preserve *p, char *why, size_t why_len);

/* How a block failed to come back after a restore. */
enum preserve_loss_kind {
	PRESERVE_ALIASED,	/* reads what was restored elsewhere */
	PRESERVE_VANISHED_ZEROS,	/* the write vanished: reads zeros */
	PRESERVE_VANISHED,	/* the write vanished: reads other data */
};

/*
 * Bytes that did not read back as restored: a fake card that maps two
 * addresses to one place (aliased: alias_byte is where what it reads
 * was restored) or keeps nothing there (vanished).
 */
struct preserve_loss {
	uint64_t off_byte;		/* first byte */
	uint64_t len_byte;		/* bytes */
	enum preserve_loss_kind kind;
	uint64_t alias_byte;		/* aliased: the other place */
};

/*
 * After preserve_restore() failed with -EIO: the byte ranges that did not
 * come back, ascending, into *loss (owned by p); returns how many.
 */
size_t preserve_losses(const struct preserve *p,
		       const struct preserve_loss **loss);

/* Bytes saved; the journal's path. */
uint64_t preserve_bytes(const struct preserve *p);
const char *preserve_journal(const struct preserve *p);

/* Free the memory copy; the journal file is left where it is. */
void preserve_free(struct preserve *p);

/*
 * The --restore path: check the whole journal before touching dev, then
 * restore, verify and remove the journal as preserve_restore() does.
 * Returns 0; -EINVAL for a truncated, corrupt or foreign file; -ESTALE
 * when the journal belongs to another device (size, block size or
 * fingerprint differ), when its ranges no longer hold what the run
 * wrote, or for a version 1 journal; -EIO or another -errno when
 * writing back failed, in which case the journal is kept.  Nothing is
 * written unless the journal is whole and matches dev.
 */
int preserve_restore_journal(const char *journal, struct device *dev,
			     char *why, size_t why_len);

/*
 * After a crash: was the journal never completed?  Nonzero when journal
 * does not exist but its temporary "JOURNAL.tmp" does.  A test writes
 * nothing before its journal has its name, so the device is then as it
 * was and nothing needs restoring.
 */
int preserve_journal_unfinished(const char *journal);

/* Remove the "JOURNAL.tmp" of an unfinished journal; 0 or -errno. */
int preserve_drop_unfinished(const char *journal);

/*
 * The checks of preserve_restore_journal() without the writing (force:
 * skip the check of what the ranges hold, and write back every block,
 * since the state may be stale): on success *pp holds the
 * journal's ranges, ready for preserve_restore() (which writes them
 * back and removes the journal) or preserve_free().
 * Returns 0 or what preserve_restore_journal() would refuse with.
 */
int preserve_load_journal(struct preserve **pp, const char *journal,
			  struct device *dev, int force, char *why,
			  size_t why_len);

/*
 * Wrap inner in a device that forwards everything and, once
 * preserve_save() has saved ranges through it, notes in the journal what
 * every write into them is about to write (before it reaches inner), so
 * that --restore can tell the test's data from anything written later.
 * Its clock is inner's minus the time spent noting.  On success it owns
 * inner.  Returns 0, -EINVAL or -ENOMEM.
 */
int preserve_wrap(struct device **out, struct device *inner);

/*
 * The reads that saved ranges lazily through the guard under dev (or
 * stacked on it) so far, their bytes, and the guard's time off the
 * clock (saving and noting; on a virtual clock, untimed I/O costs none
 * of it).  Nonzero when such a guard saves lazily.
 */
int preserve_lazy_io(struct device *dev, uint64_t *calls, uint64_t *bytes,
		     uint64_t *paused_ns);

#endif /* FLASHBENCH_PRESERVE_H */
