#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tests/docs/samples.py - the documentation's sample outputs checked
against a real run.

The smoke plan (tests/vm/plan.sh, vt_samples) runs each command whose
output the documentation shows, with the module loaded as `make run`
loads it, and prints it to its log as

    sample: $ COMMAND
    sample| a line of its output

(vm.sh's TAP stream turns them into `# ` comments).  Every sample in the
given files that starts with `$ COMMAND` for one of those commands must
have the shape of the real output: line for line the same once every
number is replaced by N and every run of blanks by one blank.  A sample
line that is `...` followed by anything stands for any number of lines;
blank lines are ignored.  Values (timings, pids, free memory) may differ,
a renamed key, a new column or a line the tool no longer prints may not.

One line a check, "ok docs.sample.FILE.COMMAND" or "not ok ...: why".

usage: samples.py LOG FILE...
"""

import re
import sys

NUMBER = re.compile(r"0x[0-9a-fA-F]+|[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")
PROMPT = re.compile(r"^(\s*)\$ (.*\S)\s*$")


def shape(line):
    """A line with its numbers and its blank runs made alike."""
    return " ".join(NUMBER.sub("N", line).split())


def real_outputs(log):
    """The commands the plan ran and their output lines, from its log."""
    outputs = {}
    current = None
    with open(log, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("# "):
                line = line[2:]
            if line.startswith("sample: $ "):
                current = line[len("sample: $ "):].strip()
                outputs[current] = []
            elif line.startswith("sample| ") and current is not None:
                outputs[current].append(line[len("sample| "):])
            elif line == "sample|" and current is not None:
                outputs[current].append("")
    return outputs


def doc_samples(path, commands):
    """(line number, command, output lines) of each sample of @commands."""
    samples = []
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        m = PROMPT.match(lines[i])
        if not m or m.group(2) not in commands:
            i += 1
            continue
        indent, cmd, start = len(m.group(1)), m.group(2), i + 1
        out = []
        i += 1
        while i < len(lines):
            line = lines[i]
            if PROMPT.match(line) or line.startswith("```"):
                break
            # An rst block ends at text indented less than the prompt.
            if line.strip() and len(line) - len(line.lstrip()) < indent:
                break
            out.append(line[indent:] if line.strip() else "")
            i += 1
        samples.append((start, cmd, out))
    return samples


def matches(sample, real):
    """None if @sample has the shape of @real, else why not."""
    want = [shape(x) for x in sample if x.strip()]
    have = [shape(x) for x in real if x.strip()]

    def walk(w, h):
        if w == len(want):
            return None if h == len(have) else \
                "the real output goes on: %r" % have[h]
        if want[w].startswith("..."):
            for k in range(h, len(have) + 1):
                if walk(w + 1, k) is None:
                    return None
            return "nothing after %r matches" % want[w]
        if h == len(have):
            return "the real output ends before %r" % want[w]
        if want[w] != have[h]:
            return "%r where the tool prints %r" % (want[w], have[h])
        return walk(w + 1, h + 1)

    return walk(0, 0)


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().split("\n")[-1], file=sys.stderr)
        return 2
    real = real_outputs(sys.argv[1])
    if not real:
        print("not ok docs.sample.run: no sample output in %s" % sys.argv[1])
        return 1
    failed = 0
    seen = set()
    for path in sys.argv[2:]:
        base = path.rsplit("/", 1)[-1]
        for lineno, cmd, out in doc_samples(path, real):
            seen.add(cmd)
            name = "docs.sample.%s.%s" % (base, cmd)
            why = matches(out, real[cmd])
            if why is None:
                print("ok %s" % name)
            else:
                failed += 1
                print("not ok %s: %s:%d: %s" % (name, path, lineno, why))
    for cmd in sorted(set(real) - seen):
        failed += 1
        print("not ok docs.sample.%s: the plan runs it for a sample that "
              "no file shows" % cmd)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
