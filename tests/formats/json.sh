# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/json.sh: --output-format=json, sourced by tests/formats.sh.
# Every fixture's document is validated against doc/gprof-json.schema.json
# (python3-jsonschema) and each of its figures compared with the text
# reports of the same inputs (json_check.py); then the choices the text
# does not make: options that select reports, symspecs, a rate of 0, an
# empty profile, names that are not UTF-8.

JSON_SCHEMA=$ROOT/doc/gprof-json.schema.json
JSON_CHECK=$TESTS_DIR/formats/json_check.py

# json_case TEST FIXTURE "OPTIONS" ["JSON-ONLY OPTIONS"]: the document
# made with both sets of options must match `gprof -b -p OPTIONS` and
# `gprof -b -q OPTIONS` (symspecs and -z change the model the text and
# the document share; report options change only the text).
json_case() {
	_d=$FIXTURES/$2
	# shellcheck disable=SC2046,SC2086
	if ! "$GPROF" --output-format=json ${4:-} $3 "$_d/prog" \
	    $(fixture_profiles "$2") >"$WORK/j.json" 2>"$WORK/j.err"; then
		fail "$1" "gprof --output-format=json failed:" "$(head -5 "$WORK/j.err")"
		return
	fi
	_flat=$WORK/j.flat _cg=$WORK/j.cg
	# The text with the documents' way with compiler clones (GNU's rule
	# under -l, theirs otherwise).
	_cl=--clones=merge
	case " $3 " in *" -l "*) _cl= ;; esac
	# shellcheck disable=SC2046,SC2086
	"$GPROF" -b -p $_cl $3 "$_d/prog" $(fixture_profiles "$2") >"$_flat" \
		2>/dev/null || _flat=-
	# shellcheck disable=SC2046,SC2086
	"$GPROF" -b -q $_cl $3 "$_d/prog" $(fixture_profiles "$2") >"$_cg" \
		2>/dev/null || _cg=-
	check "$1" python3 "$JSON_CHECK" "$JSON_SCHEMA" "$WORK/j.json" \
		"$_flat" "$_cg"
}

# json_has TEST PYTHON-EXPRESSION: the expression, over the document d
# ($WORK/j.json), is true.
json_has() {
	check "$1" python3 -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
if not eval("(" + sys.argv[2] + ")"):
    sys.exit("false: " + sys.argv[2])' "$WORK/j.json" "$2"
}

json_tests() {
	for _jf in $(fixture_names); do
		json_case "json: $_jf matches the schema and the text" "$_jf" ""
	done

	# C++: the demangled name as the text shows it, and the symbol.
	json_case "json: cxx again" cxx ""
	json_has "json: C++ names demangled, raw names kept" \
		'any(r["name"].startswith("geometry::Shape::area(") and
		     r["raw_name"].startswith("_Z") for r in d["flat_profile"])'

	# Report options do not thin the document (-b, -p, -q, -P, -Q); the
	# options that change the model (symspecs, -z) apply as in the text.
	json_case "json: -b -P -Q change nothing" cycle-O2 "" "-b -P -Q"
	json_case "json: -p -q keep both parts" callgraph "" "-p -q"
	json_case "json: -p alone keeps the call graph" callgraph "" "-p"
	json_case "json: -q alone keeps the flat profile" callgraph "" "-q"
	json_case "json: -pSYM as the text" symspec "-pspin"
	json_case "json: -qSYM as the text" symspec "-qmain"
	json_case "json: -z as the text" callgraph "-z"
	json_case "json: -Pfib -Qfib as the text" cycle-O2 "-Pfib -Qfib"
	json_case "json: -e -E -f -F as the text" callgraph \
		"-eburn -Eis_odd -fcaller_one -Fapply"
	json_case "json: -k as the text" cycle-O2 "-kmain/spin"
	json_case "json: -l as the text" lines-O0 "-l"

	# A sampling rate of 0: every time is inf or nan in the text, null
	# here; the document stays valid.
	cp "$FIXTURES/cycle-O2/gmon.out" "$WORK/hz0.out"
	printf '\000\000\000\000' |
		dd of="$WORK/hz0.out" bs=1 seek=41 conv=notrunc 2>/dev/null
	if "$GPROF" --output-format=json "$FIXTURES/cycle-O2/prog" \
	    "$WORK/hz0.out" >"$WORK/j.json" 2>/dev/null; then
		"$GPROF" -b -p "$FIXTURES/cycle-O2/prog" "$WORK/hz0.out" \
			>"$WORK/j.flat" 2>/dev/null
		"$GPROF" -b -q "$FIXTURES/cycle-O2/prog" "$WORK/hz0.out" \
			>"$WORK/j.cg" 2>/dev/null
		check "json: rate 0 gives nulls, as inf/nan in the text" python3 \
			"$JSON_CHECK" "$JSON_SCHEMA" "$WORK/j.json" "$WORK/j.flat" \
			"$WORK/j.cg"
		json_has "json: rate 0: total_seconds null" \
			'd["summary"]["total_seconds"] is None and
			 d["diagnosis"][0]["status"] == "problem"'
	else
		fail "json: rate 0 gives nulls" "gprof failed"
	fi

	# A profile with neither histogram nor arcs (the header alone).
	head -c 20 "$FIXTURES/cycle-O2/gmon.out" >"$WORK/empty.out"
	if "$GPROF" --output-format=json "$FIXTURES/cycle-O2/prog" \
	    "$WORK/empty.out" >"$WORK/j.json" 2>/dev/null; then
		check "json: empty profile matches the schema" python3 \
			"$JSON_CHECK" "$JSON_SCHEMA" "$WORK/j.json"
		json_has "json: empty profile: no flat profile, no call graph" \
			'd["flat_profile"] is None and d["call_graph"] is None'
	else
		fail "json: empty profile" "gprof failed"
	fi

	# Names are bytes: quote, backslash and a control character escaped,
	# UTF-8 kept, bytes that are not UTF-8 replaced by U+FFFD (-S names
	# the symbols).
	if nm "$FIXTURES/cycle-O2/prog" >"$WORK/nm.txt" 2>/dev/null; then
		_addr=$(awk '$3 == "pong" { print $1 }' "$WORK/nm.txt")
		# (text symbols only: -S reads three fields a line)
		awk '($2 == "T" || $2 == "t") && $3 != "pong"' "$WORK/nm.txt" \
			>"$WORK/syms.txt"
		printf '%s T sp"\\\001\377\303\251\342\202x\n' "$_addr" \
			>>"$WORK/syms.txt"
		"$GPROF" --output-format=json -S "$WORK/syms.txt" \
			"$FIXTURES/cycle-O2/prog" "$FIXTURES/cycle-O2/gmon.out" \
			>"$WORK/j.json" 2>/dev/null
		check "json: odd names keep the document valid" python3 \
			"$JSON_CHECK" "$JSON_SCHEMA" "$WORK/j.json"
		json_has "json: odd names escaped, non-UTF-8 bytes as U+FFFD" \
			'"sp\"\\\x01\ufffd\u00e9\ufffd\ufffdx" in
			 [r["name"] for r in d["flat_profile"]]'
	else
		fail "json: odd names" "nm failed (binutils)"
	fi
}

# compare_print_json(), on a comparison made by hand (compare_json.c),
# linked with the objects the gprof under test was built from: build/
# and its stage folders for src/gprof, build-san/ for build-san/gprof.
json_compare_tests() {
	_objdir=$(dirname "$GPROF")
	case $_objdir in
	src|*/src) _objdir=${_objdir%src}build ;;
	esac
	_objs=
	for _o in "$_objdir"/*.o "$_objdir"/*/*.o; do
		# only objects of the tool's present sources: not libgmon's, nor
		# one left behind by a source that moved or went
		_rel=${_o#"$_objdir"/}
		case $_o in
		*/main.o|*'*'*) ;;
		*) [ -f "$ROOT/src/${_rel%.o}.c" ] && _objs="$_objs $_o" ;;
		esac
	done
	if [ -z "$_objs" ]; then
		fail "json: compare_print_json harness" "no objects in $_objdir"
		return
	fi
	_cc=$(sed -n 's/^CC = //p' "$ROOT/config.mk")
	_libs=$(sed -n 's/^LIBS = //p' "$ROOT/config.mk")
	_san=
	case $_objdir in
	*build-san*) _san="-fsanitize=address,undefined" ;;
	esac
	# shellcheck disable=SC2086
	if ! ${_cc:-cc} -std=gnu11 $_san -Iinclude -I. -Isrc \
	    -o "$WORK/compare_json" "$TESTS_DIR/formats/compare_json.c" $_objs \
	    $_libs -lm >"$WORK/cc.err" 2>&1; then
		fail "json: compare_print_json harness builds" "$(head -5 "$WORK/cc.err")"
		return
	fi
	"$WORK/compare_json" >"$WORK/j.json"
	check "json: compare_print_json matches its schema" python3 \
		"$JSON_CHECK" "$ROOT/doc/gprof-compare.schema.json" "$WORK/j.json"
	json_has "json: compare_print_json: absent side null, inf/nan null" \
		'd["rows"][1]["old"] is None and d["rows"][2]["new"] is None and
		 d["rows"][2]["old"]["self_seconds"] is None and
		 d["rows"][1]["name"] == "fresh\t\"new\" \ufffd" and
		 d["rows"][0]["delta_self_seconds"] == 0.1'
}

if need python3 python3-jsonschema; then
	if python3 -c 'import jsonschema; jsonschema.Draft202012Validator' \
	    2>/dev/null; then
		json_tests
		json_compare_tests
	else
		fail "python3 jsonschema is installed" \
			"install it with: sh tests/deps.sh (package python3-jsonschema)"
	fi
fi
