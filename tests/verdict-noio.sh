#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# verdict/ judges records: no device, no clock, no output.  Fails (and
# names the object and the symbol) when an object given references the
# device layer, a clock or a system call that does I/O; or, but for the
# one file still printing, any output (stdio, JSON).
#
#   tests/verdict-noio.sh build/verdict/*.o        (NM= for cross builds)

NM=${NM:-nm}

device='^(dev|sim|simstore|blockdev|fault|holders|sysfs|vm|bench)_'
device="$device|^capacity_measure$"
system='^(clock_gettime|gettimeofday|time|nanosleep|usleep|sleep|open|open64|openat|openat64|close|read|write|pread|pread64|pwrite|pwrite64|ioctl|fsync|fdatasync|lseek|lseek64|mmap|mmap64|syscall|fopen|fopen64|fclose|fread)$'
output='^(printf|fprintf|vfprintf|vprintf|dprintf|puts|fputs|fputc|putc|putchar|fwrite|fflush|perror|json_[a-z_0-9]+)$'
# Still printing, until its text moves to output/ (issue 19): the card
# registers' reconciliation.
printing=' reconcile.o '

status=0
for o in "$@"; do
	# undefined symbols, fortified names (__read_chk) as their plain ones
	syms=$($NM -u "$o" | awk '{ print $NF }' | sed 's/^__//; s/_chk$//') ||
		exit 1
	bad=$(printf '%s\n' "$syms" | grep -E "$device|$system")
	case "$printing" in
	*" ${o##*/} "*) ;;
	*) bad="$bad $(printf '%s\n' "$syms" | grep -E "$output")" ;;
	esac
	for s in $bad; do
		echo "$o: calls $s: verdict/ does no I/O (decisions only; the I/O belongs in probes/, the output in output/)" >&2
		status=1
	done
done
exit $status
