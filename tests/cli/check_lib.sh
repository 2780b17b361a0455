# Shared by the CLI test scripts (source it): a scratch folder $T removed on exit, a failure
# counter, and the assertions every script uses.
#   check NAME EXPECTED_RC CMD...   runs CMD (stdout → $T/out, stderr → $T/err), counts a failure
#                                   when its exit status is not EXPECTED_RC
#   err_has NAME PATTERN / out_has NAME PATTERN   grep the last command's stderr / stdout
#   json_eq NAME FILE PYEXPR        the Python expression over j (FILE's JSON) must hold
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
check() {
  local name=$1 want=$2; shift 2
  "$@" >"$T/out" 2>"$T/err"; local rc=$?
  if [ "$rc" != "$want" ]; then echo "FAIL $name: exit $rc, want $want"; cat "$T/err"; fails=$((fails+1)); fi
}
err_has() { grep -q -- "$2" "$T/err" || { echo "FAIL $1: stderr lacks '$2'"; cat "$T/err"; fails=$((fails+1)); }; }
out_has() { grep -q -- "$2" "$T/out" || { echo "FAIL $1: stdout lacks '$2'"; head -c 600 "$T/out"; fails=$((fails+1)); }; }
json_eq() {
  /usr/bin/python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if ($3) else 1)" "$2" ||
    { echo "FAIL $1: $3 on $(head -c 600 "$2")"; fails=$((fails+1)); }
}
