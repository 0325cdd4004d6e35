/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * call_graph.c - unit tests of cg_assemble() (and cg_tally()): cycle
 * detection and the propagation of time up the call graph.
 *
 * The rules, as GNU gprof's documentation states them:
 *  - a function called by itself only (recursion) is in no cycle: its self
 *    calls are taken out of its call count and carry no time;
 *  - functions that call each other, directly or through others, form one
 *    cycle, which is numbered (cycles numbered in address order of their
 *    first members), whose members point at a header entry, and whose
 *    self time is the sum of its members';
 *  - a parent receives, through each arc to a child, the share
 *    count / (calls of the child) of the child's self time plus the
 *    child's own descendants' time; calls into a cycle share the whole
 *    cycle's time in proportion to the calls from outside it, and arcs
 *    inside a cycle carry nothing.
 * Self times (hist_time, in samples) are set by hand here; every expected
 * figure is worked out from them in the comments.
 */
#include <stdlib.h>

#include "unit.h"

/* Is `s` one of the members listed from cycle header `cyc`?  Also counts
   the members into *n. */
static bool in_cycle(const struct sym *cyc, const struct sym *s, int *n)
{
	bool found = false;
	*n = 0;
	for (const struct sym *m = cyc->cyc_next; m; m = m->cyc_next) {
		++*n;
		found |= m == s;
	}
	return found;
}

/*
 * main calls f 3 times and g once; g calls f once; f calls leaf 4 times.
 * Self times: main 0, g 2, f 8, leaf 4 (14 in all).
 *   leaf: no children, child time 0.
 *   f:    leaf's calls all come from f: 4/4 * (4 + 0)            = 4.
 *   g:    1 of f's 4 calls: 1/4 * (8 + 4)                         = 3.
 *   main: 3 of f's 4 calls: 3/4 * (8 + 4) = 9; g's only call:
 *         1/1 * (2 + 3) = 5; child time                           = 14,
 *         i.e. all the time there is.
 * Arcs show the self and child shares: main->f 6 + 3, g->f 2 + 1,
 * main->g 2 + 3, f->leaf 4 + 0.
 * Entries by total time (self + children): main 14, f 12, g 5, leaf 4.
 */
static void test_propagation(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "main");
	model_func(&g, 0x1010, "f");
	model_func(&g, 0x1020, "g");
	model_func(&g, 0x1030, "leaf");
	model_syms_done(&g, 0x1040);
	struct sym *m = model_sym(&g, "main"), *f = model_sym(&g, "f");
	struct sym *gg = model_sym(&g, "g"), *leaf = model_sym(&g, "leaf");
	gg->hist_time = 2;
	f->hist_time = 8;
	leaf->hist_time = 4;
	model_calls(&g, m, f, 3);
	model_calls(&g, m, gg, 1);
	model_calls(&g, gg, f, 1);
	model_calls(&g, f, leaf, 4);
	size_t n;
	struct sym **order = cg_assemble(&g, &n);

	bool ok = unit_near(leaf->child_time, 0, "leaf child time");
	ok &= unit_near(f->child_time, 4, "f child time");
	ok &= unit_near(gg->child_time, 3, "g child time");
	ok &= unit_near(m->child_time, 14, "main child time");
	struct arc *a = arc_lookup(&g, m, f);
	ok &= unit_near(a->time, 6, "main->f self share");
	ok &= unit_near(a->child_time, 3, "main->f child share");
	a = arc_lookup(&g, gg, f);
	ok &= unit_near(a->time, 2, "g->f self share");
	ok &= unit_near(a->child_time, 1, "g->f child share");
	a = arc_lookup(&g, m, gg);
	ok &= unit_near(a->time, 2, "main->g self share");
	ok &= unit_near(a->child_time, 3, "main->g child share");
	a = arc_lookup(&g, f, leaf);
	ok &= unit_near(a->time, 4, "f->leaf self share");
	ok &= unit_near(a->child_time, 0, "f->leaf child share");
	/* Nothing is excluded: each function propagates all its time. */
	ok &= unit_near(m->prop_self + m->prop_child, 14, "main total");
	ok &= unit_near(f->prop_self + f->prop_child, 12, "f total");
	ok &= unit_near(g.print_time, 14, "print_time");
	ok &= unit_expect(g.ncycles == 0, "no cycle");
	ok &= unit_expect(n == 4 && order[0] == m && order[1] == f &&
	                  order[2] == gg && order[3] == leaf,
	                  "entries main, f, g, leaf");
	ok &= unit_expect(m->index == 1 && f->index == 2 && gg->index == 3 &&
	                  leaf->index == 4, "index numbers 1-4 in that order");
	unit_check(ok, "cg_time_propagates_in_proportion_to_calls");
	free(order);
	model_free(&g);
}

/* An arc that was never taken (count 0, as -c adds them) carries no time:
   main -> x (0 calls, x self 5) and main -> y (1 call, y self 2) give main
   a child time of 2 only. */
static void test_untaken_arc(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "main");
	model_func(&g, 0x1010, "x");
	model_func(&g, 0x1020, "y");
	model_syms_done(&g, 0x1030);
	struct sym *m = model_sym(&g, "main"), *x = model_sym(&g, "x");
	struct sym *y = model_sym(&g, "y");
	x->hist_time = 5;
	y->hist_time = 2;
	model_calls(&g, m, x, 0);
	model_calls(&g, m, y, 1);
	size_t n;
	free(cg_assemble(&g, &n));
	bool ok = unit_near(m->child_time, 2, "main child time");
	ok &= unit_near(arc_lookup(&g, m, x)->time, 0, "main->x share");
	unit_check(ok, "cg_untaken_arc_carries_no_time");
	model_free(&g);
}

/* main calls f twice; f calls itself 5 times (7 calls of f recorded).  f
   is in no cycle, its calls are 7 - 5 = 2 and its self calls 5, and main
   gets all of f's self time (6) through its 2 of f's 2 calls. */
static void test_self_recursion(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "main");
	model_func(&g, 0x1010, "f");
	model_syms_done(&g, 0x1020);
	struct sym *m = model_sym(&g, "main"), *f = model_sym(&g, "f");
	f->hist_time = 6;
	model_calls(&g, m, f, 2);
	model_calls(&g, f, f, 5);
	size_t n;
	free(cg_assemble(&g, &n));
	bool ok = unit_expect(g.ncycles == 0, "no cycle");
	ok &= unit_expect(f->cycle_num == 0 && f->cyc_head == f,
	                  "f heads no cycle but itself");
	ok &= unit_expect(f->ncalls == 2, "f called 2 times");
	ok &= unit_expect(f->self_calls == 5, "f calls itself 5 times");
	ok &= unit_near(f->child_time, 0, "f child time");
	ok &= unit_near(m->child_time, 6, "main child time");
	ok &= unit_expect(n == 2, "2 entries");
	unit_check(ok, "cg_self_recursion_is_not_a_cycle");
	model_free(&g);
}

/* main -> a (1 call), a -> b (2), b -> a (1); self times main 1, a 3,
   b 5.  a and b form cycle 1: both point at its header, which lists
   exactly them; its self time is 3 + 5 = 8; its calls from outside are
   main's 1, its calls between members 2 + 1 = 3.  main gets the whole
   cycle's time through its only call: 1/1 * (8 + 0) = 8. */
static void test_two_cycle(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "main");
	model_func(&g, 0x1010, "a");
	model_func(&g, 0x1020, "b");
	model_syms_done(&g, 0x1030);
	struct sym *m = model_sym(&g, "main"), *a = model_sym(&g, "a");
	struct sym *b = model_sym(&g, "b");
	m->hist_time = 1;
	a->hist_time = 3;
	b->hist_time = 5;
	model_calls(&g, m, a, 1);
	model_calls(&g, a, b, 2);
	model_calls(&g, b, a, 1);
	size_t n;
	free(cg_assemble(&g, &n));
	bool ok = unit_expect(g.ncycles == 1, "one cycle");
	if (ok) {
		struct sym *cyc = &g.cycles[0];
		int members;
		ok &= unit_expect(cyc->cycle_num == 1, "header numbered 1");
		ok &= unit_expect(a->cycle_num == 1 && b->cycle_num == 1 &&
		                  m->cycle_num == 0, "a and b in cycle 1, main not");
		ok &= unit_expect(a->cyc_head == cyc && b->cyc_head == cyc,
		                  "members point at the header");
		ok &= unit_expect(in_cycle(cyc, a, &members) &&
		                  in_cycle(cyc, b, &members) && members == 2,
		                  "header lists a and b only");
		ok &= unit_expect(a->top_order == b->top_order,
		                  "members share one depth-first number");
		ok &= unit_near(cyc->hist_time, 8, "cycle self time");
		ok &= unit_expect(cyc->ncalls == 1, "1 call into the cycle");
		ok &= unit_expect(cyc->self_calls == 3, "3 calls within it");
		ok &= unit_near(m->child_time, 8, "main child time");
		ok &= unit_expect(n == 4, "3 functions + 1 cycle entries");
	}
	unit_check(ok, "cg_two_function_cycle");
	model_free(&g);
}

/* a -> b -> c -> a (1 call each), main -> a (1), c -> d (2), main -> e
   (1); self times a 1, b 2, c 3, d 4, e 5.  a, b, c form the one cycle,
   whose self time is 1 + 2 + 3 = 6, 1 call from outside and 3 inside;
   d and e are in none.  The cycle's descendants' time is d's 4 (c makes
   all of d's 2 calls); main gets 1/1 * (6 + 4) + 1/1 * 5 = 15. */
static void test_three_cycle(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "main");
	model_func(&g, 0x1010, "a");
	model_func(&g, 0x1020, "b");
	model_func(&g, 0x1030, "c");
	model_func(&g, 0x1040, "d");
	model_func(&g, 0x1050, "e");
	model_syms_done(&g, 0x1060);
	struct sym *m = model_sym(&g, "main"), *a = model_sym(&g, "a");
	struct sym *b = model_sym(&g, "b"), *c = model_sym(&g, "c");
	struct sym *d = model_sym(&g, "d"), *e = model_sym(&g, "e");
	a->hist_time = 1;
	b->hist_time = 2;
	c->hist_time = 3;
	d->hist_time = 4;
	e->hist_time = 5;
	model_calls(&g, m, a, 1);
	model_calls(&g, a, b, 1);
	model_calls(&g, b, c, 1);
	model_calls(&g, c, a, 1);
	model_calls(&g, c, d, 2);
	model_calls(&g, m, e, 1);
	size_t n;
	free(cg_assemble(&g, &n));
	bool ok = unit_expect(g.ncycles == 1, "one cycle");
	if (ok) {
		struct sym *cyc = &g.cycles[0];
		int members;
		ok &= unit_expect(a->cycle_num == 1 && b->cycle_num == 1 &&
		                  c->cycle_num == 1, "a, b, c in cycle 1");
		ok &= unit_expect(m->cycle_num == 0 && d->cycle_num == 0 &&
		                  e->cycle_num == 0 && d->cyc_head == d,
		                  "main, d, e in none");
		ok &= unit_expect(in_cycle(cyc, a, &members) &&
		                  in_cycle(cyc, b, &members) &&
		                  in_cycle(cyc, c, &members) && members == 3,
		                  "header lists a, b, c only");
		ok &= unit_expect(a->cyc_head == cyc && b->cyc_head == cyc &&
		                  c->cyc_head == cyc, "members point at the header");
		ok &= unit_near(cyc->hist_time, 6, "cycle self time");
		ok &= unit_near(cyc->child_time, 4, "cycle child time");
		ok &= unit_expect(cyc->ncalls == 1 && cyc->self_calls == 3,
		                  "1 call into the cycle, 3 within");
		ok &= unit_near(m->child_time, 15, "main child time");
	}
	unit_check(ok, "cg_three_function_cycle");
	model_free(&g);
}

/* Two callers outside a cycle share its time by their calls.  main -> a
   (1 call), x -> b (3), a -> b (2), b -> a (1), b -> leaf (4); self times
   main 1, a 3, b 5, leaf 4.  Cycle {a, b}: calls from outside 1 + 3 = 4,
   inside 2 + 1 = 3, self time 8, descendants' time 4 (leaf, all of whose
   4 calls b makes; b's own child time is 4 too).  main gets 1/4 of 8 + 4:
   2 + 1 = 3; x gets 3/4: 6 + 3 = 9.  The arcs inside the cycle carry
   nothing. */
static void test_cycle_shares(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "main");
	model_func(&g, 0x1010, "x");
	model_func(&g, 0x1020, "a");
	model_func(&g, 0x1030, "b");
	model_func(&g, 0x1040, "leaf");
	model_syms_done(&g, 0x1050);
	struct sym *m = model_sym(&g, "main"), *x = model_sym(&g, "x");
	struct sym *a = model_sym(&g, "a"), *b = model_sym(&g, "b");
	struct sym *leaf = model_sym(&g, "leaf");
	m->hist_time = 1;
	a->hist_time = 3;
	b->hist_time = 5;
	leaf->hist_time = 4;
	model_calls(&g, m, a, 1);
	model_calls(&g, x, b, 3);
	model_calls(&g, a, b, 2);
	model_calls(&g, b, a, 1);
	model_calls(&g, b, leaf, 4);
	size_t n;
	free(cg_assemble(&g, &n));
	bool ok = unit_expect(g.ncycles == 1, "one cycle");
	if (ok) {
		struct sym *cyc = &g.cycles[0];
		ok &= unit_expect(cyc->ncalls == 4 && cyc->self_calls == 3,
		                  "4 calls into the cycle, 3 within");
		ok &= unit_near(cyc->hist_time, 8, "cycle self time");
		ok &= unit_near(cyc->child_time, 4, "cycle child time");
		ok &= unit_near(cyc->prop_self + cyc->prop_child, 12,
		                "cycle total");
		ok &= unit_near(b->child_time, 4, "b child time");
		ok &= unit_near(a->child_time, 0, "a child time");
		ok &= unit_near(m->child_time, 3, "main child time");
		ok &= unit_near(x->child_time, 9, "x child time");
		struct arc *arc = arc_lookup(&g, m, a);
		ok &= unit_near(arc->time, 2, "main->a self share");
		ok &= unit_near(arc->child_time, 1, "main->a child share");
		arc = arc_lookup(&g, x, b);
		ok &= unit_near(arc->time, 6, "x->b self share");
		ok &= unit_near(arc->child_time, 3, "x->b child share");
		arc = arc_lookup(&g, a, b);
		ok &= unit_near(arc->time + arc->child_time, 0, "a->b share");
		arc = arc_lookup(&g, b, a);
		ok &= unit_near(arc->time + arc->child_time, 0, "b->a share");
	}
	unit_check(ok, "cg_cycle_time_shared_by_outside_callers");
	model_free(&g);
}

/* Cycles with a member in common are one cycle: a <-> b and b <-> c
   (1 call each way), main -> a (1).  One cycle of a, b and c. */
static void test_merged_cycles(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "main");
	model_func(&g, 0x1010, "a");
	model_func(&g, 0x1020, "b");
	model_func(&g, 0x1030, "c");
	model_syms_done(&g, 0x1040);
	struct sym *m = model_sym(&g, "main"), *a = model_sym(&g, "a");
	struct sym *b = model_sym(&g, "b"), *c = model_sym(&g, "c");
	model_calls(&g, m, a, 1);
	model_calls(&g, a, b, 1);
	model_calls(&g, b, a, 1);
	model_calls(&g, b, c, 1);
	model_calls(&g, c, b, 1);
	size_t n;
	free(cg_assemble(&g, &n));
	bool ok = unit_expect(g.ncycles == 1, "one cycle");
	if (ok) {
		int members;
		ok &= unit_expect(in_cycle(&g.cycles[0], a, &members) &&
		                  in_cycle(&g.cycles[0], b, &members) &&
		                  in_cycle(&g.cycles[0], c, &members) &&
		                  members == 3, "header lists a, b, c only");
		ok &= unit_expect(m->cycle_num == 0, "main in none");
		/* calls within: a->b, b->a, b->c, c->b */
		ok &= unit_expect(g.cycles[0].self_calls == 4, "4 calls within");
	}
	unit_check(ok, "cg_cycles_sharing_a_member_merge");
	model_free(&g);
}

/* Two unrelated cycles: main -> a, a <-> b, main -> c, c <-> d (1 call
   each).  Cycles are numbered in the address order of their first
   members: {a, b} (0x1010..0x1020) is 1, {c, d} (0x1030..0x1040) is 2.
   Self times a 1, b 2, c 3, d 4 give the cycles 3 and 7. */
static void test_two_cycles(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "main");
	model_func(&g, 0x1010, "a");
	model_func(&g, 0x1020, "b");
	model_func(&g, 0x1030, "c");
	model_func(&g, 0x1040, "d");
	model_syms_done(&g, 0x1050);
	struct sym *m = model_sym(&g, "main"), *a = model_sym(&g, "a");
	struct sym *b = model_sym(&g, "b"), *c = model_sym(&g, "c");
	struct sym *d = model_sym(&g, "d");
	a->hist_time = 1;
	b->hist_time = 2;
	c->hist_time = 3;
	d->hist_time = 4;
	model_calls(&g, m, a, 1);
	model_calls(&g, a, b, 1);
	model_calls(&g, b, a, 1);
	model_calls(&g, m, c, 1);
	model_calls(&g, c, d, 1);
	model_calls(&g, d, c, 1);
	size_t n;
	free(cg_assemble(&g, &n));
	bool ok = unit_expect(g.ncycles == 2, "two cycles");
	if (ok) {
		ok &= unit_expect(a->cycle_num == 1 && b->cycle_num == 1,
		                  "a, b in cycle 1");
		ok &= unit_expect(c->cycle_num == 2 && d->cycle_num == 2,
		                  "c, d in cycle 2");
		ok &= unit_expect(a->cyc_head == &g.cycles[0] &&
		                  d->cyc_head == &g.cycles[1], "headers");
		ok &= unit_near(g.cycles[0].hist_time, 3, "cycle 1 self time");
		ok &= unit_near(g.cycles[1].hist_time, 7, "cycle 2 self time");
		ok &= unit_near(m->child_time, 10, "main child time");
		ok &= unit_expect(n == 7, "5 functions + 2 cycles entries");
	}
	unit_check(ok, "cg_two_cycles_numbered_by_address");
	model_free(&g);
}

/* cg_tally() turns an arc record's addresses into symbols: a call site
   anywhere inside main (0x1004, 0x100c) is main's, the callee is the
   function at the target address.  Records of one pair add up (3 + 4 =
   7 calls of f, one arc); a call site outside every symbol is dropped. */
static void test_tally(void)
{
	struct gprof g;
	model_init(&g);
	model_func(&g, 0x1000, "main");
	model_func(&g, 0x1010, "f");
	model_syms_done(&g, 0x1020);
	struct sym *m = model_sym(&g, "main"), *f = model_sym(&g, "f");
	cg_tally(&g, 0x1004, 0x1010, 3);
	cg_tally(&g, 0x100c, 0x1010, 4);
	cg_tally(&g, 0x0800, 0x1010, 9);
	struct arc *a = arc_lookup(&g, m, f);
	bool ok = unit_expect(a && a->count == 7, "arc main->f of 7 calls");
	ok &= unit_expect(f->ncalls == 7, "f called 7 times");
	ok &= unit_expect(g.narcs == 1, "one arc");
	unit_check(ok, "cg_tally_sums_records_by_function");
	model_free(&g);
}

void unit_call_graph(void)
{
	test_propagation();
	test_untaken_arc();
	test_self_recursion();
	test_two_cycle();
	test_three_cycle();
	test_cycle_shares();
	test_merged_cycles();
	test_two_cycles();
	test_tally();
}
