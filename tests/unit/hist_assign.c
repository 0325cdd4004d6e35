/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hist_assign.c - unit tests of hist_assign_samples(): how the samples of
 * each histogram bin are credited to the symbols the bin overlaps.
 *
 * The rule, from the gmon format and GNU gprof's arithmetic: addresses
 * are counted in units of 2 bytes (GMON_HIST_UNIT); a symbol runs from its
 * own start to the next symbol's start (the last one to the end of the
 * text); bin i of a record starting at unit L covers the units
 * [L + trunc(i * scale), L + trunc((i + 1) * scale)), scale being the
 * record's units per bin; a symbol overlapping u units of a bin gets
 * u * count / scale of that bin's count.  Every sample counts in
 * g->total_time, whether or not a symbol gets it.
 *
 * Each expectation below is worked out by hand from that rule.
 */
#include <stdint.h>

#include "unit.h"

/* f, g, h of 16 bytes each; 12 bins of 4 bytes (scale = 0x30 bytes / 2 /
   12 = 2 units): bins 0-3 are f's, 4-7 g's, 8-11 h's, and a bin at a
   symbol's edge gives nothing to its neighbour. */
static void test_aligned_bins(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "f");
	model_func(&g, 0x1010, "g");
	model_func(&g, 0x1020, "h");
	model_syms_done(&g, 0x1030);
	struct histogram *h = model_hist(&g, 0x1000, 0x1030, 12);
	hist_add(h, 1, 3);
	hist_add(h, 3, 1);           /* [0x100c, 0x1010): f's last bin */
	hist_add(h, 4, 2);           /* [0x1010, 0x1014): g's first bin */
	hist_add(h, 6, 5);
	hist_add(h, 11, 7);
	hist_assign_samples(&g);
	/* f = 3 + 1, g = 2 + 5, h = 7; total 18. */
	bool ok = unit_near(model_sym(&g, "f")->hist_time, 4, "f");
	ok &= unit_near(model_sym(&g, "g")->hist_time, 7, "g");
	ok &= unit_near(model_sym(&g, "h")->hist_time, 7, "h");
	ok &= unit_near(g.total_time, 18, "total_time");
	unit_check(ok, "hist_aligned_bins");
	model_free(&g);
}

/* The example: a bin of 4 bytes holding the last 2 bytes of f and
   the first 2 of g.  f = [0x1000, 0x1006), g = [0x1006, 0x1010); 4 bins
   of 4 bytes over [0x1000, 0x1010) (scale 2 units).  Bin 1 is
   [0x1004, 0x1008): 1 unit of f, 1 unit of g, so its 10 samples split
   10 * 1 / 2 = 5 and 5.  Bin 0 (6 samples) is all f's: f = 6 + 5 = 11. */
static void test_straddle_half(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "f");
	model_func(&g, 0x1006, "g");
	model_func(&g, 0x1010, "h");
	model_syms_done(&g, 0x1020);
	struct histogram *h = model_hist(&g, 0x1000, 0x1010, 4);
	hist_add(h, 0, 6);
	hist_add(h, 1, 10);
	hist_assign_samples(&g);
	bool ok = unit_near(model_sym(&g, "f")->hist_time, 11, "f");
	ok &= unit_near(model_sym(&g, "g")->hist_time, 5, "g");
	ok &= unit_near(model_sym(&g, "h")->hist_time, 0, "h");
	ok &= unit_near(g.total_time, 16, "total_time");
	unit_check(ok, "hist_bin_straddles_two_symbols_half_each");
	model_free(&g);
}

/* An uneven split: 4 bins of 8 bytes over [0x1000, 0x1020) (scale 16 / 4
   = 4 units).  f = [0x1000, 0x100a), g = [0x100a, 0x1018), h = [0x1018,
   0x1020).  Bin 1 = [0x1008, 0x1010) holds 2 bytes (1 unit) of f and 6
   bytes (3 units) of g: its 8 samples give f 8 * 1 / 4 = 2 and g
   8 * 3 / 4 = 6.  Bin 0 (1 sample) is f's, bin 3 (4 samples) h's.
   f = 1 + 2 = 3, g = 6, h = 4, total 13. */
static void test_straddle_proportional(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "f");
	model_func(&g, 0x100a, "g");
	model_func(&g, 0x1018, "h");
	model_syms_done(&g, 0x1020);
	struct histogram *h = model_hist(&g, 0x1000, 0x1020, 4);
	hist_add(h, 0, 1);
	hist_add(h, 1, 8);
	hist_add(h, 3, 4);
	hist_assign_samples(&g);
	bool ok = unit_near(model_sym(&g, "f")->hist_time, 3, "f");
	ok &= unit_near(model_sym(&g, "g")->hist_time, 6, "g");
	ok &= unit_near(model_sym(&g, "h")->hist_time, 4, "h");
	ok &= unit_near(g.total_time, 13, "total_time");
	unit_check(ok, "hist_bin_straddles_proportional_split");
	model_free(&g);
}

/* One bin over three symbols: 2 bins of 16 bytes over [0x1000, 0x1020)
   (scale 8 units).  Bin 0 = [0x1000, 0x1010) holds f = [0x1000, 0x100c)
   (6 units), g = [0x100c, 0x100e) (1 unit) and the first unit of h =
   [0x100e, 0x1020).  Its 8 samples: f 8 * 6 / 8 = 6, g 1, h 1. */
static void test_three_symbols(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "f");
	model_func(&g, 0x100c, "g");
	model_func(&g, 0x100e, "h");
	model_syms_done(&g, 0x1020);
	struct histogram *h = model_hist(&g, 0x1000, 0x1020, 2);
	hist_add(h, 0, 8);
	hist_assign_samples(&g);
	bool ok = unit_near(model_sym(&g, "f")->hist_time, 6, "f");
	ok &= unit_near(model_sym(&g, "g")->hist_time, 1, "g");
	ok &= unit_near(model_sym(&g, "h")->hist_time, 1, "h");
	ok &= unit_near(g.total_time, 8, "total_time");
	unit_check(ok, "hist_bin_over_three_symbols");
	model_free(&g);
}

/* Symbols are placed in whole 2-byte units: g at the odd address 0x1003
   starts at unit 0x1003 / 2 = 0x801, i.e. at byte 0x1002.  With 2 bins of
   4 bytes (scale 2 units) over [0x1000, 0x1008), bin 0 = units
   [0x800, 0x802) holds one unit of f and one of g: 4 samples give 2
   and 2 (by bytes it would have been 3 and 1). */
static void test_odd_address(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "f");
	model_func(&g, 0x1003, "g");
	model_syms_done(&g, 0x1008);
	struct histogram *h = model_hist(&g, 0x1000, 0x1008, 2);
	hist_add(h, 0, 4);
	hist_assign_samples(&g);
	bool ok = unit_near(model_sym(&g, "f")->hist_time, 2, "f");
	ok &= unit_near(model_sym(&g, "g")->hist_time, 2, "g");
	unit_check(ok, "hist_odd_symbol_address_whole_units");
	model_free(&g);
}

/* Samples outside every symbol count in the total only.  f = [0x1000,
   0x1010), g = [0x1010, 0x1020) (the text ends there).  16 bins of 4 bytes
   over [0x0ff0, 0x1030): bins 0-3 lie before f, 4-7 on f, 8-11 on g,
   12-15 past the text.  Bin 1 (6 samples) and bin 13 (4) reach nobody,
   bin 5 (3) is f's: f = 3, g = 0, total 13. */
static void test_outside(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "f");
	model_func(&g, 0x1010, "g");
	model_syms_done(&g, 0x1020);
	struct histogram *h = model_hist(&g, 0x0ff0, 0x1030, 16);
	hist_add(h, 1, 6);
	hist_add(h, 5, 3);
	hist_add(h, 13, 4);
	hist_assign_samples(&g);
	bool ok = unit_near(model_sym(&g, "f")->hist_time, 3, "f");
	ok &= unit_near(model_sym(&g, "g")->hist_time, 0, "g");
	ok &= unit_near(g.total_time, 13, "total_time");
	unit_check(ok, "hist_samples_outside_symbols_count_in_total_only");
	model_free(&g);
}

/* Two records over disjoint ranges, same scale (2 units): A = [0x1000,
   0x1020) in 8 bins, B = [0x2000, 0x2010) in 4.  g runs from 0x1010 up to
   h's start at 0x2000.  A's bin 2 (5 samples) is f's, A's bin 5 (1) g's,
   B's bin 3 (9) h's: f = 5, g = 1, h = 9, total 15. */
static void test_two_records(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "f");
	model_func(&g, 0x1010, "g");
	model_func(&g, 0x2000, "h");
	model_syms_done(&g, 0x2010);
	hist_add(model_hist(&g, 0x1000, 0x1020, 8), 2, 5);
	hist_add(&g.hists[0], 5, 1);
	hist_add(model_hist(&g, 0x2000, 0x2010, 4), 3, 9);
	hist_assign_samples(&g);
	bool ok = unit_near(model_sym(&g, "f")->hist_time, 5, "f");
	ok &= unit_near(model_sym(&g, "g")->hist_time, 1, "g");
	ok &= unit_near(model_sym(&g, "h")->hist_time, 9, "h");
	ok &= unit_near(g.total_time, 15, "total_time");
	unit_check(ok, "hist_two_records");
	model_free(&g);
}

/* A scale that is not a whole number of units: 24 units in 5 bins is 4.8
   units per bin, and bin ends are truncated to whole units.  Bin 0 covers
   units [0, trunc(4.8)) = [0, 4), 4 units: its 12 samples give f
   4 * 12 / 4.8 = 10.  Bin 1 covers [4, trunc(9.6)) = [4, 9), 5 units:
   5 * 12 / 4.8 = 12.5.  f = 22.5 although the total is 24 (GNU's sums
   have this slack too). */
static void test_truncated_edges(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "f");
	model_syms_done(&g, 0x1030);
	struct histogram *h = model_hist(&g, 0x1000, 0x1030, 5);
	hist_add(h, 0, 12);
	hist_add(h, 1, 12);
	hist_assign_samples(&g);
	bool ok = unit_near(g.hist_scale, 4.8, "scale");
	ok &= unit_near(model_sym(&g, "f")->hist_time, 22.5, "f");
	ok &= unit_near(g.total_time, 24, "total_time");
	unit_check(ok, "hist_bin_edges_truncate_to_units");
	model_free(&g);
}

/* A bin summed past 2^32 - 1 keeps its count: UINT32_MAX + 1 = 2^32
   samples, all on f (one bin of 4 bytes over f's 4 bytes). */
static void test_wide_bin(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "f");
	model_syms_done(&g, 0x1004);
	struct histogram *h = model_hist(&g, 0x1000, 0x1004, 1);
	hist_add(h, 0, UINT32_MAX);
	hist_add(h, 0, 1);
	bool ok = unit_expect(hist_bin(h, 0) == (uint64_t)1 << 32,
	                      "bin 0 holds 2^32");
	hist_assign_samples(&g);
	ok &= unit_near(model_sym(&g, "f")->hist_time, 4294967296.0, "f");
	ok &= unit_near(g.total_time, 4294967296.0, "total_time");
	unit_check(ok, "hist_bin_past_32_bits");
	model_free(&g);
}

void unit_hist_assign(void)
{
	test_aligned_bins();
	test_straddle_half();
	test_straddle_proportional();
	test_three_symbols();
	test_odd_address();
	test_outside();
	test_two_records();
	test_truncated_edges();
	test_wide_bin();
}
