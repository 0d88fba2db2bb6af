/* SPDX-License-Identifier: MIT */
/*
 * cache-format.h: the layout of a timeline cache file (docs/view-cache.md), shared by its
 * writer (cache-write.c) and its reader (cache.c). Host byte order: a cache is a local
 * file, and one written elsewhere fails the version check and is built again.
 *
 *   header | level-0 span blocks and mark blocks, interleaved as rows filled them |
 *   level 1 blocks | ... | level 4 blocks | span index | mark index | rows | classes |
 *   rate bins | syscalls | functions | addresses | damage | strings
 *
 * Every section starts at a multiple of 8. A row's blocks are a run of its index
 * (block0, nblocks) per level. A span block holds up to TLC_BLOCK contiguous spans in time
 * order, as arrays: begin[n] (uint32, from the block's first), value[n] (uint32), state[n]
 * (uint8), padded to 8: 9 bytes a span. A span ends where the next begins, the last at the
 * block's `last`; a gap between a row's spans (a thread gone, its tid back later) is a span
 * of state TLC_GAP. A mark block: t[n] (int64), class[n] (uint32), padded to 8.
 *
 * Levels of detail: level L > 0 of a row holds its spans again, runs of those shorter than
 * tlc_level_ns(L) merged into one entry no longer than that (with the state and value of
 * its longest span, and how many it merged); a pixel at least that wide reads level L, so
 * a coarse picture reads about 2 entries a pixel whatever the number of spans. Its blocks:
 * begin[n] (int64), value[n] (uint32), spans[n] (uint32, saturating: spans of the block up
 * to and with this entry), state[n] (uint8): 17 bytes an entry. The blocks of each level
 * above 0 lie together after those of level 0 (and the index is by level, then row), so
 * the pages a coarse picture maps hold little else.
 *
 * Flame rows (kind TL_ROW_CALLS, a thread's calls at one depth: flame.h) are rows of the
 * same blocks: a span is a call, its value the function (an index of the functions
 * section: uint32 offsets of names in strings), its state the call's flags (enum
 * calls_flag's first three); the time between two calls is a gap, and at the levels above
 * 0 a gap shorter than the level's runs is merged into them as a short span is. The
 * addresses section names the calls' addresses (struct tlc_address, sorted by process,
 * address, then from), for the events that give an address (a function's entry or exit).
 */
#ifndef TIMELINE_CACHE_FORMAT_H
#define TIMELINE_CACHE_FORMAT_H

#include <stdint.h>

#define TLC_MAGIC     "SPOORTL\n"
#define TLC_VERSION   4    /* 2: flame rows; 3: addresses; 4: procname contexts' names */
#define TLC_BLOCK     256  /* spans or marks per block at most */
#define TLC_RATE_BINS 4096 /* rate bins per class at most */
#define TLC_GAP       0xff /* the state of a gap between spans */
#define TLC_LEVELS    5    /* level 0 (the spans) and 4 coarser ones */

/* The longest run level L merges: 1 ms, 17 ms, 268 ms, 4.3 s. */
static inline int64_t tlc_level_ns(unsigned level)
{
	return (int64_t) 1 << (16 + 4 * level);
}

struct tlc_section {
	uint64_t offset, count; /* count: of records (strings: of bytes) */
};

struct tlc_header {
	char magic[8];
	uint32_t version, header_size;
	uint64_t file_size; /* the whole file: a truncated one is refused */
	uint64_t fingerprint;
	int64_t origin;   /* absolute ns of relative 0 */
	int64_t duration; /* relative end */
	uint64_t lost;
	int64_t rate_width; /* ns per rate bin (> 0) */
	uint64_t rate_bins; /* bins over the trace (<= TLC_RATE_BINS) */
	/* rates: uint32 counts, each class's run of them (struct tlc_class) */
	struct tlc_section strings, rows, span_index, mark_index, classes, syscalls, rates, damage;
	struct tlc_section functions; /* uint32 offsets in strings */
	struct tlc_section addresses; /* struct tlc_address */
};

struct tlc_row {
	uint32_t kind; /* enum tl_row_kind */
	uint32_t name; /* offset in strings */
	int64_t id, pid, first, last;
	/* runs of the span index, per level (every level has blocks when level 0 has) */
	uint64_t block0[TLC_LEVELS], blocks[TLC_LEVELS];
	uint64_t mark_block0, mark_blocks; /* a run of the mark index */
	uint64_t spans, marks;             /* in its blocks (gaps not counted) */
	uint32_t depth;                    /* TL_ROW_CALLS: of its calls (0: outermost) */
	uint32_t pad;
};

struct tlc_block {
	uint64_t offset; /* of its arrays in the file */
	int64_t first;   /* its first span's begin (first mark's time) */
	int64_t last;    /* its last span's end (last mark's time) */
	uint64_t before; /* the row's spans and gaps (marks) in the blocks before it */
	uint64_t spans;  /* the spans and gaps (marks) it holds */
	uint32_t count;  /* entries: 1..TLC_BLOCK */
	/* the span that lasts longest in it: the whole block in one pixel shows that */
	uint32_t value;
	uint8_t state;
	uint8_t level; /* < TLC_LEVELS; marks: 0 */
	uint8_t pad[6];
};

struct tlc_class {
	uint32_t name; /* offset in strings */
	uint32_t user; /* 1: a user-space event (its marks are on the rows) */
	/* its counts of bins [bin0, bin0 + bins) (the others: none) at rate in the rates
	 * section, or UINT64_MAX: no events */
	uint64_t rate;
	uint32_t bin0, bins;
};

struct tlc_address {         /* flame.h's tl_address */
	uint64_t proc, addr; /* analysis/loadmap.h's process (trace << 32 | vpid), address */
	int64_t from;        /* relative ns: from then on (else the first of the address) */
	uint32_t function;   /* an index of functions */
	uint32_t pad;
};

struct tlc_damage {
	int64_t at;    /* relative time of the last event before the damage */
	uint32_t text; /* offset in strings */
	uint32_t pad;
};

/* Bytes of a span block and a mark block of n records, padded to 8. */
static inline uint64_t tlc_span_block_size(uint64_t n, unsigned level)
{
	return (n * (level ? 17 : 9) + 7) & ~(uint64_t) 7;
}
static inline uint64_t tlc_mark_block_size(uint64_t n, unsigned level)
{
	(void) level;
	return (n * 12 + 7) & ~(uint64_t) 7;
}

#endif
