# SPDX-License-Identifier: GPL-3.0-or-later
# bench/graph.sh - the call graph at scale (issue 16): the 100,000-function,
# 1,000,000-arc report, default and -b -p, how the time grows when the
# program doubles, and peak memory, each against its target and beside GNU
# gprof where GNU finishes in reasonable time.
#
# Sourced by bench/run.sh (it uses run.sh's synth, synth_gmon, measure and
# mb); BENCH_GRAPH_ONLY=1 make bench runs this section alone.
# BENCH_GRAPH_RUNS (default 5) runs per measurement: medians, as the
# machine may be shared.

g_runs=${BENCH_GRAPH_RUNS:-5}
# BENCH_RATIO_PAIRS (default 9): pairs of runs per doubling ratio (each
# ratio of two runs moves by a fifth or more on this shared machine).
r_pairs=${BENCH_RATIO_PAIRS:-9}

# The figures of the code before this work (commit a4aff57, this machine
# at low load, cpu seconds; the ratios measured as below): the baseline of
# each row, and of the memory target.
before_default_s=3.36 before_bp_s=1.35 before_mb=142.5 before_bp_mb=124.0
before_ratio_20=2.34 before_ratio_50=2.58

# gmeasure VAR N M OPTS: ours (and GNU, when N allows) on synth-N's
# M-arc profile; sets VAR_{wall,cpu,kb} and gn_{wall,cpu,kb} ("-" when
# GNU was not run).
gmeasure() {
	gm_p=$out/synth-$2/prog gm_g=$out/synth-$2/gmon-$3.out
	# shellcheck disable=SC2086
	measure "$1" "$tmp" "$tmp/graph-ours.txt" "$g_runs" -- "$ours" $4 "$gm_p" "$gm_g"
	gn_wall=- gn_cpu=- gn_kb=-
	if [ "$have_gnu" = 1 ] && [ "$2" -le "$gnu_max_n" ]; then
		# shellcheck disable=SC2086
		measure gn "$tmp" "$tmp/graph-gnu.txt" "$g_runs" -- "$gnu" $4 "$gm_p" "$gm_g"
	fi
}

# verdict VALUE LIMIT: "ok" when VALUE <= LIMIT.
verdict() {
	awk -v v="$1" -v l="$2" 'BEGIN { print (v + 0 <= l + 0) ? "ok" : "MISSED" }'
}

div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

grow() {
	printf '%-26s %9s %9s %9s %9s %-9s %6s %7s\n' "$@" | tee -a "$results"
}

{
	echo
	echo "call graph at scale (issue 16): median of $g_runs runs.  Targets are judged on cpu"
	echo "seconds (user + system), which a loaded machine disturbs less than wall time;"
	echo "before: the code before this work (commit a4aff57), cpu seconds or MB.  Doubling"
	echo "ratios: median over $r_pairs pairs of runs taken back to back, in turn smaller and"
	echo "larger first (GNU: of its medians)."
} | tee -a "$results"
grow "measure" "ours wall" "ours cpu" "GNU wall" "GNU cpu" "target" "" "before"

for n in 20000 40000 50000 100000; do
	synth "$n"
	synth_gmon "$n" $((n * 3))
done
synth_gmon 100000 1000000

gmeasure big 100000 1000000 ""
grow "100k/1M default: s" "$big_wall" "$big_cpu" "$gn_wall" "$gn_cpu" "<= 1.0" \
     "$(verdict "$big_cpu" 1.0)" "$before_default_s"
big_mb=$(mb "$big_kb")
gmeasure bp 100000 1000000 "-b -p"
grow "100k/1M -b -p: s" "$bp_wall" "$bp_cpu" "$gn_wall" "$gn_cpu" "<= 0.3" \
     "$(verdict "$bp_cpu" 0.3)" "$before_bp_s"
grow "100k/1M default: peak MB" "$big_mb" - - - "<= $before_mb" \
     "$(verdict "$big_mb" "$before_mb")" "$before_mb"
bp_mb=$(mb "$bp_kb")
grow "100k/1M -b -p: peak MB" "$bp_mb" - - - "<= $before_bp_mb" \
     "$(verdict "$bp_mb" "$before_bp_mb")" "$before_bp_mb"

# cpu N: one run of ours on synth-N's 3N-arc profile, its cpu seconds.
cpu_once() {
	"$out/runstat" -n 1 -- "$ours" "$out/synth-$1/prog" \
		"$out/synth-$1/gmon-$(($1 * 3)).out" | cut -d' ' -f2
}

# pair_ratio A B: the median, over r_pairs pairs of runs at sizes A and B
# taken one right after the other (so both see the same load), of B's cpu
# seconds over A's.  Every other pair runs B first, so that a machine
# speeding up or slowing down during the measurement favours neither.
pair_ratio() {
	pr_i=0 pr_v=
	while [ "$pr_i" -lt "$r_pairs" ]; do
		if [ $((pr_i % 2)) = 0 ]; then
			pr_a=$(cpu_once "$1") pr_b=$(cpu_once "$2")
		else
			pr_b=$(cpu_once "$2") pr_a=$(cpu_once "$1")
		fi
		pr_v="$pr_v $(div "$pr_b" "$pr_a")"
		pr_i=$((pr_i + 1))
	done
	echo $pr_v | tr ' ' '\n' | sort -n |
		awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Doubling N (M = 3N): how much more the default report costs; GNU's
# from the medians of its runs.
for pair in 20000:40000 50000:100000; do
	a=${pair%%:*} b=${pair##*:}
	gr=-
	if [ "$have_gnu" = 1 ] && [ "$b" -le "$gnu_max_n" ]; then
		gmeasure sa "$a" $((a * 3)) ""
		ga=$gn_cpu
		gmeasure sb "$b" $((b * 3)) ""
		gr=$(div "$gn_cpu" "$ga")
	fi
	r=$(pair_ratio "$a" "$b")
	eval "was=\$before_ratio_${a%000}"
	grow "N ${a%000}k->${b%000}k: cpu ratio" - "$r" - "$gr" "<= 2.2" \
	     "$(verdict "$r" 2.2)" "$was"
done
