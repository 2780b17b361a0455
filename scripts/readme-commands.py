#!/usr/bin/python3
"""Run the README's shell commands in order and print a Markdown table of their results.

The whole README (minutes; its output depends on the machine) is a tool for notes and docs (issue 26:
"your note lists the README's commands with their results"); `--quick` is the ctest `readme_commands`
(issue 39): it checks the whole README statically (every file a command reads is made by an earlier
line, no command line is left unrun) and runs the fast rows, comparing shown output.

usage: scripts/readme-commands.py [--readme README.md] [--build DIR] [--timeout 300] [--only N,M | --quick]
                                  [--dir DIR] [--keep] [--list]

Rows are the command lines of README.md's ```sh / ```bash / plain ``` blocks (```python and ```json
blocks are skipped) that start with `build/circuitzoo`, `build/bench/`, `cmake --build`,
`/usr/bin/python3` or `./scripts/` (also under `mpirun -np K` or in a one-line `for ...; do ...; done`).
`./scripts/run.sh` and `./scripts/test.sh` are what CI runs: listed, not run. Other lines (echo > FILE,
berkeley-abc, yosys, or a ```python block that writes a file with open(NAME, "w")) are run only when
they write a file a later row reads, as helper rows marked "(makes files)"; any other line is
"skipped", and so is a row that reads a file no earlier line writes ("needs your file"). A README that
runs top to bottom has 0 skipped. Files are told by their extension (.json, .aag, .npy, ...), and by
place: the value of an output flag (-o, --json, --proof, >, ...; a --proof DIR too) is written, the
argument of check-proof is read (the directory a --certify --proof row writes).

Shown output: a row whose comment starts with a JSON value (`# {"output": [[0],[5]]}`) must print
that value (stdout parsed as JSON and compared, so layout does not matter; text after the value,
`; ...`, is commentary); a comment with `(exit N)` or a leading verdict word (verified/proved/
equivalent: 0, FAILED/refuted/impossible: 1, refused: 2) must exit so.

`--quick` (the ctest, half a minute on 2 cores) runs the fast rows and the rows that make their
files; it exits 1 when anything in the whole README is skipped. Which rows are fast:
  - never: benchmarks and builds (build/bench/, bench/*.py, cmake --build), and berkeley-abc/yosys
    helper rows when the tool is missing (with the rows that read their files);
  - the slow kinds (--method sat or algebra, check-proof, claims, prove, sweep, --exhaustive, mpirun,
    circuit/to-model: from a tenth of a second to hours) only when the row's comment says how long
    it takes and that is at most 10 s: a time written `N s` (or `N min`), e.g.
        build/circuitzoo verify mqar/dyadic -p n=8 -p c=16 --method sat    # proved (exit 0), 0.1 s
    The README's editor decides: writing a row's time in its comment puts it in the ctest, and a
    row that grew slower leaves it when its time is updated (more than one time: the largest
    counts). A row that takes over three times what its comment says (and over 2 s more) is flagged
    in the table (`comment says N s`), never failed (a loaded machine is not an error);
  - every other row (export, eval, stats, a plain verify, ...): those take well under a second.
`--list` marks the rows `--quick` runs with `quick`.

Everything runs in one scratch directory (files one command writes are there for the next), where
build/ (or --build DIR), bench/, examples/, python/ and scripts/ are symlinks to this checkout and docs/ is an empty
directory (so a README command that writes docs/X.png does not touch the checkout). Each command
runs under `bash -o pipefail -c`, stdin from /dev/null, with a timeout; on timeout its whole
process group is killed. Priority and environment are inherited: run it under `nice -n 10` on a
shared machine. As root, OpenMPI's mpirun refuses to start (the README says so), so the script sets
OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 for its commands when run as root.
`--only N,M` runs those rows and the rows that write the files they read. Exit 1 when a row failed,
timed out, exited otherwise than its comment says or printed other than its comment shows (and, with
--quick, when a line is skipped); 2 on bad arguments.
"""
import argparse, fnmatch, json, os, re, shlex, shutil, signal, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREFIXES = ("build/circuitzoo", "build/bench/", "cmake --build", "/usr/bin/python3", "./scripts/")
# --quick never runs these (minutes each, and what they measure is the machine).
NEVER_QUICK = re.compile(r"build/bench/|cmake --build|bench/\w+\.py")
# --quick runs these only when the row's comment says they take at most QUICK_SECONDS (see the top).
SLOW = re.compile(r"--method (sat|algebra)|\bcheck-proof\b|\bclaims\b|\bprove\b|\bsweep\b|--exhaustive|^mpirun\b|"
                  r"circuit/to-model")
QUICK_SECONDS = 10
# A time in a comment: "0.13 s", "8 s;", "~6 min" (not "6.4·10^85", "2 steps" or "n=8").
TIME_RE = re.compile(r"(?<![\w.·^=])(\d+(?:\.\d+)?) ?(ms|s|min)\b")
CI_ONLY = ("./scripts/run.sh", "./scripts/test.sh")
SHELL_LANGS = ("", "sh", "bash", "shell", "console")
LINKED = ("build", "bench", "examples", "python", "scripts")
# Flags whose value is a file the command writes ("-" is stdout, not a file).
OUT_FLAGS = {"-o", "--json", "--csv", "--plot", "--proof", "--inputs", "--labels", "--checkpoint", ">", ">>"}
FILE_RE = re.compile(r"^[\w./*$-]+\.(json|aag|aig|blif|bristol|dot|npy|npz|safetensors|csv|ckpt|drat|png|svg|txt)$")


def stated_seconds(comment):
    """The largest time a row's comment states, in seconds (None when it states none)."""
    times = [float(n) * {"ms": 0.001, "s": 1, "min": 60}[u] for n, u in TIME_RE.findall(comment)]
    return max(times) if times else None


def strip_comment(line):
    """Drop a trailing `# comment` (a # after whitespace, outside quotes); return (command, comment)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def parse_readme(path):
    """Yield ("sh", line_no, command, comment) and ("python", line_no, source, "") in README order."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*```\s*([\w+-]*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        lang, start = m.group(1).lower(), i + 1
        i += 1
        body = []
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1  # closing fence
        if lang == "python":
            yield ("python", start + 1, "\n".join(t for _, t in body), "")
        if lang not in SHELL_LANGS:
            continue
        pending, pending_no = "", None
        for no, text in body:
            cmd, comment = strip_comment(text)
            if not cmd.strip():
                continue  # blank or comment-only line (also a comment continued on the next line)
            if cmd.endswith("\\"):
                pending, pending_no = pending + cmd[:-1] + " ", pending_no or no
                continue
            yield ("sh", pending_no or no, (pending + cmd).strip(), comment)
            pending, pending_no = "", None


def inner_command(cmd):
    """The command a line runs: the body of `for ...; do X; done`, or X of `mpirun -np K X`."""
    m = re.match(r"^for .*?;\s*do\s+(.*?);\s*done\s*$", cmd)
    if m:
        cmd = m.group(1)
    m = re.match(r"^mpirun(\s+-\S+(\s+\d+)?)*\s+(.*)$", cmd)
    if m:
        cmd = m.group(3)
    return cmd


def files_of(cmd):
    """(inputs, outputs): file names a shell line reads and writes, by flags and extensions."""
    try:
        toks = shlex.split(cmd.replace(">", " > ").replace("|", " | "))
    except ValueError:
        toks = cmd.split()
    ins, outs = [], []
    prev = ""
    for t in toks:
        t = t.rstrip(";")
        if " " in t and re.search(r"\b(read|write)_\w+", t):  # an ABC or Yosys script
            for part in t.split(";"):
                w = part.split()
                if w and re.match(r"^(read|write)_\w+$", w[0]):
                    names = [x for x in w[1:] if not x.startswith("-")]
                    if names:
                        (outs if w[0].startswith("write") else ins).append(names[-1])
        elif FILE_RE.match(t) and t != "-":
            (outs if prev in OUT_FLAGS else ins).append(t)
        elif prev in OUT_FLAGS and re.match(r"^[\w.][\w./*$-]*$", t):  # a directory: --proof dy-cert
            outs.append(t)
        elif prev == "check-proof" and re.match(r"^[\w.][\w./*$-]*$", t):  # the directory it reads
            ins.append(t)
        prev = t
    return ins, [re.sub(r"\$\{?\w+\}?", "*", o) for o in outs]


def written_by_python(src):
    return re.findall(r"open\(\s*[\"']([^\"']+)[\"']\s*,\s*[\"']w", src)


def matches(name, written):
    return any(fnmatch.fnmatch(name, w) or fnmatch.fnmatch(w, name) for w in written)


def expected_exit(comment):
    """The exit code a line's comment promises, if it says: `(exit N)` or a leading verdict word."""
    m = re.search(r"\(exit (\d+)\)", comment)
    if m:
        return int(m.group(1))
    for words, code in ((("verified", "proved", "equivalent"), 0), (("FAILED", "refuted", "impossible"), 1),
                        (("refused",), 2)):
        if re.match(r"^(%s)\b" % "|".join(words), comment):
            return code
    return None


def shown_output(comment):
    """The JSON value a comment starts with (`# {"output": ...}; note`), or None."""
    if not comment.startswith(("{", "[")):
        return None
    try:
        return json.JSONDecoder().raw_decode(comment)[0]
    except ValueError:
        return None


def output_matches(shown, out):
    """stdout is one JSON value equal to the shown one."""
    try:
        return json.loads(out) == shown
    except ValueError:
        return False


def short(text, n=100):
    text = " ".join(text.split()).replace("\\|", "|").replace("|", "\\|")
    return text if len(text) <= n else text[: n - 1] + "…"


def last_line(text, skip_notes=False):
    """The last non-empty line (with skip_notes, not counting circuitzoo's `note (...)`, `note:` and `domain:`
    lines, which follow the row that carries the verdict)."""
    lines = [ln.split("\r")[-1].strip() for ln in text.split("\n")]
    lines = [ln for ln in lines if ln and not (skip_notes and ln.startswith(("note (", "note:", "domain: ")))]
    return lines[-1] if lines else ""


def summarize(rc, out, err):
    """An error's last stderr line; else stdout's verdict-like JSON keys (or the JSON itself, compact)
    when stdout is one JSON object, else the last non-empty line of stdout (of stderr without one)."""
    errors = [ln for ln in err.split("\n") if ln.startswith("error:")]
    if rc not in (0, None) and errors:
        return errors[-1]
    s = out.strip()
    if s.startswith("{"):
        try:
            j = json.loads(s)
            keys = [k for k in ("verdict", "status", "failed", "instances", "method") if k in j]
            if keys:
                return "json: " + ", ".join(f"{k}={json.dumps(j[k])}" for k in keys)
            return json.dumps(j, separators=(",", ":"))
        except ValueError:
            pass
    line = last_line(out, True) or last_line(err) or "(no output)"
    if len(line) > 100 and not line.startswith("{"):  # a row's inline params object hides its verdict
        line = re.sub(r"\{\"[^{}]*\}", "{…}", line)
        line = re.sub(r"(?:\b[\w.]+=\S+\s+){3,}", lambda m: f"({len(m.group(0).split())} params) ", line)
    return line


def run(cmd, cwd, timeout):
    """(exit code or None on timeout, seconds, stdout, stderr)."""
    env = dict(os.environ)
    if os.geteuid() == 0:  # OpenMPI refuses root unless told (the README says so beside its mpirun line)
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    t0 = time.monotonic()
    p = subprocess.Popen(["bash", "-o", "pipefail", "-c", cmd], cwd=cwd, stdin=subprocess.DEVNULL, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        out = err = b""
        for sig in (signal.SIGTERM, signal.SIGKILL):  # the command's own process group only
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            try:
                out, err = p.communicate(timeout=5)
                break
            except subprocess.TimeoutExpired:
                pass
        rc = None
    dec = lambda b: (b or b"").decode("utf-8", "replace")
    return rc, time.monotonic() - t0, dec(out), dec(err)


def plan(items):
    """Rows in README order: (kind, line, cmd, comment, inputs, outputs); plus CI and skipped lines."""
    rows, ci, skipped = [], [], []
    for kind, no, cmd, comment in items:
        if kind == "python":
            outs = written_by_python(cmd)
            if outs and "import circuitzoo" not in cmd and "import torch" not in cmd:
                rows.append(["helper-py", no, cmd, "", [], outs])
            continue
        if cmd.split()[0] in CI_ONLY:
            ci.append((no, cmd))
            continue
        ins, outs = files_of(cmd)
        if inner_command(cmd).startswith(PREFIXES):
            rows.append(["row", no, cmd, comment, ins, outs])
        elif outs:
            rows.append(["helper", no, cmd, comment, ins, outs])
        else:
            skipped.append((no, cmd))
    # Keep only helpers whose files a later row reads.
    keep = []
    for i, r in enumerate(rows):
        if r[0] == "row" or any(matches(f, r[5]) for later in rows[i + 1:] if later[0] == "row" for f in later[4]):
            keep.append(r)
        elif r[0] == "helper":
            skipped.append((r[1], r[2]))
    return keep, ci, skipped


TABLE_BEGIN = "<!-- tasks-table: generated from `circuitzoo tasks --json` (scripts/readme-commands.py --write-tasks-table) -->"
TABLE_END = "<!-- /tasks-table -->"


def tasks_table(build):
    """The README's table of tasks x artifact kinds x methods, from `tasks --json` (issue 47)."""
    out = subprocess.run([os.path.join(build, "circuitzoo"), "tasks", "--json"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise RuntimeError(f"circuitzoo tasks --json: exit {out.returncode}: {out.stderr.strip()}")
    rows = ["| task | what it is | circuit file | model file | program file |", "|---|---|---|---|---|"]
    for t in json.loads(out.stdout):
        m = t.get("methods", {})
        cell = lambda k: ", ".join(m.get(k, [])) or "—"
        what = t["summary"].replace("|", "\\|")  # a bar in a cell ends it in Markdown
        rows.append(f"| `{t['name']}` | {what} | {cell('circuit')} | {cell('model')} | {cell('program')} |")
    return "\n".join(rows)


def check_tasks_table(readme, build, write=False):
    """None when the README has no table; else (ok, message). write: replace the block with the generated one."""
    text = open(readme, encoding="utf-8").read()
    if TABLE_BEGIN not in text:
        return None
    head, rest = text.split(TABLE_BEGIN, 1)
    if TABLE_END not in rest:
        return False, f"tasks table: {TABLE_END} missing"
    block, tail = rest.split(TABLE_END, 1)
    want = tasks_table(build)
    if block.strip() == want:
        return True, "tasks table: matches `circuitzoo tasks --json`"
    if write:
        open(readme, "w", encoding="utf-8").write(head + TABLE_BEGIN + "\n" + want + "\n" + TABLE_END + tail)
        return True, "tasks table: rewritten from `circuitzoo tasks --json`"
    return False, "tasks table: differs from `circuitzoo tasks --json` (regenerate: scripts/readme-commands.py --write-tasks-table)"


def usage_error(what):
    print(f"error: {what}", file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    ap.add_argument("--timeout", type=float, default=300, help="seconds per command (default 300)")
    ap.add_argument("--only", default="", help="row numbers N,M (their file-writing predecessors run too)")
    ap.add_argument("--quick", action="store_true",
                    help="the ctest: check the whole README statically, run only its fast rows (see the top of this file)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="the build folder the README's build/ stands for (default: build/ of this checkout)")
    ap.add_argument("--dir", help="scratch directory (default: a fresh one under $TMPDIR)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    ap.add_argument("--list", action="store_true", help="print the rows and the files each reads and writes; run nothing")
    ap.add_argument("--write-tasks-table", action="store_true",
                    help="rewrite the README's table of tasks x artifact kinds x methods from `circuitzoo tasks --json`, then exit")
    a = ap.parse_args()
    if a.write_tasks_table:
        r = check_tasks_table(a.readme, a.build, write=True)
        print(r[1] if r else "tasks table: the README has none")
        return 0 if r and r[0] else 1
    table = check_tasks_table(a.readme, a.build)
    if table:
        print(table[1])

    rows, ci, skipped = plan(parse_readme(a.readme))
    # Files each row reads: which earlier row writes them (the last one before it).
    deps = {}
    for i, r in enumerate(rows):
        deps[i] = set()
        for f in r[4]:
            src = [j for j in range(i) if matches(f, rows[j][5])]
            if src:
                deps[i].add(src[-1])
            else:
                r.append(f)  # r[6:] = files no earlier line writes
    selected = set(range(len(rows)))
    if a.only:
        try:
            want = {int(x) - 1 for x in a.only.split(",") if x.strip()}
        except ValueError:
            usage_error("--only takes row numbers like 3,7 (--only)")
        if not want <= selected:
            usage_error(f"--only names a row that does not exist (1..{len(rows)}) (--only)")
        selected, todo = set(), list(want)
        while todo:
            i = todo.pop()
            if i not in selected:
                selected.add(i)
                todo.extend(deps[i])

    def eligible(i):  # a fast row, every row that makes its files fast too (see the top of this file)
        r = rows[i]
        if r[6:] or NEVER_QUICK.search(r[2]) or (r[0] == "helper" and not shutil.which(r[2].split()[0])):
            return False
        if SLOW.search(r[2]) or SLOW.search(inner_command(r[2])):
            t = stated_seconds(r[3])
            if t is None or t > QUICK_SECONDS:
                return False
        return all(eligible(j) for j in deps[i])
    quick, todo = set(), [i for i in range(len(rows)) if rows[i][0] == "row" and eligible(i)]
    while todo:
        i = todo.pop()
        if i not in quick:
            quick.add(i)
            todo.extend(deps[i])
    if a.quick:
        if a.only:
            usage_error("give --only or --quick, not both (--quick)")
        selected = quick
    # Lines of the README no run covers: not a row, or a row that reads a file no earlier line writes.
    not_covered = len(skipped) + sum(1 for r in rows if r[6:])

    if a.list:
        for i, r in enumerate(rows):
            print(f"{i + 1:3} line {r[1]:4} {r[0]:9} {'quick' if i in quick else '     '} {short(r[2], 80)}  reads {r[4]} writes {r[5]}"
                  + (f"  MISSING {r[6:]}" if r[6:] else ""))
        for no, cmd in ci + skipped:
            print(f"    line {no:4} not run   {short(cmd, 80)}")
        return
    scratch = a.dir or tempfile.mkdtemp(prefix="readme-commands-")
    os.makedirs(os.path.join(scratch, "docs"), exist_ok=True)
    for name in LINKED:
        link = os.path.join(scratch, name)
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(a.build) if name == "build" else os.path.join(ROOT, name), link)

    print(f"README: {os.path.relpath(a.readme)}; scratch: {scratch}; timeout {a.timeout:g} s\n")
    print("| # | command | exit | seconds | result |")
    print("|---|---|---|---|---|")
    counts = {"ok": 0, "failed": 0, "timeout": 0, "needs your file": 0, "differs from comment": 0,
              "output differs": 0}
    for i, r in enumerate(rows):
        if i not in selected:
            continue
        kind, no, cmd, comment = r[:4]
        missing = r[6:]
        label = short(cmd if kind != "helper-py" else f"```python block at README line {no}") + (
            " (makes files)" if kind != "row" else "")
        if missing:
            counts["needs your file"] += 1
            print(f"| {i + 1} | `{label}` | – | – | needs your file: {', '.join(missing)} |")
            continue
        if kind == "helper-py":
            src = os.path.join(scratch, f"readme_line_{no}.py")
            open(src, "w").write(cmd + "\n")
            cmd = f"/usr/bin/python3 {shlex.quote(os.path.basename(src))}"
        rc, secs, out, err = run(cmd, scratch, a.timeout)
        timed_out = rc is None
        result = short(summarize(rc, out, err))
        want = expected_exit(comment)
        shown = shown_output(comment)
        if timed_out:
            counts["timeout"] += 1
            exit_s, result = "timeout", f"killed after {a.timeout:g} s; last: {result}"
        else:
            exit_s = str(rc)
            if want is not None and rc != want:
                counts["differs from comment"] += 1
                result = f"⚠ comment says exit {want}: " + result
            elif shown is not None and not output_matches(shown, out):
                counts["output differs"] += 1
                result = f"⚠ comment shows {json.dumps(shown, separators=(',', ':'))}, printed: " + result
            elif rc == 0 or rc == want:
                counts["ok"] += 1
            else:
                counts["failed"] += 1
            said = stated_seconds(comment)
            if said is not None and secs > 3 * said + 2:  # a note for the README's editor, not a failure
                result = f"(comment says {said:g} s) " + result
        print(f"| {i + 1} | `{label}` | {exit_s} | {secs:.1f} | {short(result, 110)} |", flush=True)

    ran = sum(1 for i in selected)
    print(f"\n{ran} rows{' (--quick: the fast ones)' if a.quick else ''}: "
          + ", ".join(f"{v} {k}" for k, v in counts.items())
          + " (ok: exit 0, or the exit the line's comment names, and the output it shows)")
    print(f"{not_covered} skipped (README command lines no run covers: needing a file no earlier line makes, "
          f"or not a command this script runs)")
    for no, cmd in ci:
        print(f"- not run, CI runs it (.ci/run): `{short(cmd)}` (README line {no})")
    for no, cmd in skipped:
        print(f"- skipped (not a build/circuitzoo, build/bench/, cmake --build, /usr/bin/python3 or ./scripts/ line, "
              f"nor one that makes a file a later row reads): `{short(cmd)}` (README line {no})")
    if a.keep or a.dir:
        print(f"(scratch directory kept: {scratch})")
    else:
        shutil.rmtree(scratch)  # removes the symlinks, not what they point to
    bad = counts["failed"] or counts["timeout"] or counts["differs from comment"] or counts["output differs"] or (table and not table[0])
    return 1 if bad or (a.quick and not_covered) else 0


if __name__ == "__main__":
    sys.exit(main())
