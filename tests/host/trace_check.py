#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""trace_check.py - checks a JSON trace against the Trace Event Format's rules.

usage: trace_check.py TRACE.json... [--expect NAME]...

The rules the Perfetto UI and chrome://tracing rely on: one object whose
traceEvents is a list; every event has a known phase, a name, integer pid
and tid and a time; complete events ("X") have a duration >= 0 and nest
properly on their thread (contained or disjoint, never overlapping);
flows start ("s") inside a slice of their thread and end ("f", "bp": "e")
inside one of theirs, after they start, with a start for every end;
counters carry numbers; metadata names every thread that has slices.
--expect NAME: a slice or instant of that name must exist.
Exits 0 if the trace passes, 1 with a message if not.
"""
import json
import sys

PHASES = set("XBEiIsftCMbenNODPRc")


def fail(msg):
    print("trace_check: " + msg)
    sys.exit(1)


def ns(value, what):
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        fail("%s is not a number: %r" % (what, value))
    if value < 0:
        fail("%s is negative: %r" % (what, value))
    return round(value * 1000)


def main():
    args = sys.argv[1:]
    paths, expect = [], []
    i = 0
    while i < len(args):
        if args[i] == "--expect" and i + 1 < len(args):
            expect.append(args[i + 1])
            i += 2
        elif args[i].startswith("-"):
            fail("unknown argument " + args[i])
        else:
            paths.append(args[i])
            i += 1
    if not paths:
        fail("usage: trace_check.py TRACE.json... [--expect NAME]...")
    for path in paths:
        check(path, expect)


def check(path, expect):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: not JSON: %s" % (path, e))
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("the top level is not an object with a traceEvents list")

    slices, names, threads_named, flows_s, flows_f = {}, set(), set(), {}, []
    counts = {}
    for n, ev in enumerate(doc["traceEvents"]):
        where = "event %d" % n
        if not isinstance(ev, dict):
            fail(where + " is not an object")
        ph = ev.get("ph")
        if ph not in PHASES:
            fail("%s: unknown phase %r" % (where, ph))
        counts[ph] = counts.get(ph, 0) + 1
        if not isinstance(ev.get("name"), str):
            fail(where + ": no name")
        for key in ("pid", "tid") if ph != "C" else ("pid",):
            if not isinstance(ev.get(key), int) or isinstance(ev.get(key), bool):
                fail("%s (%s): %s is not an integer" % (where, ev["name"], key))
        if "args" in ev and not isinstance(ev["args"], dict):
            fail(where + ": args is not an object")
        if ph == "M":
            if ev["name"] == "thread_name":
                if not isinstance(ev.get("args", {}).get("name"), str):
                    fail(where + ": thread_name without a name")
                threads_named.add((ev["pid"], ev["tid"]))
            continue
        ts = ns(ev.get("ts"), where + " ts")
        thread = (ev["pid"], ev.get("tid"))
        if ph == "X":
            dur = ns(ev.get("dur"), where + " dur")
            slices.setdefault(thread, []).append((ts, ts + dur, ev["name"]))
            names.add(ev["name"])
        elif ph in "iI":
            if ev.get("s", "t") not in ("g", "p", "t"):
                fail(where + ": instant scope %r" % ev.get("s"))
            names.add(ev["name"])
        elif ph == "C":
            for k, v in ev.get("args", {}).items():
                if not isinstance(v, (int, float)) or isinstance(v, bool):
                    fail("%s: counter %s is not a number" % (where, k))
        elif ph == "s":
            key = (ev.get("cat"), ev.get("id"))
            if key in flows_s:
                fail(where + ": flow %r starts twice" % (key,))
            flows_s[key] = (ts, thread)
        elif ph == "f":
            flows_f.append(((ev.get("cat"), ev.get("id")), ts, thread, ev.get("bp"), where))

    # Complete events nest on their thread.
    for thread, lst in slices.items():
        if thread not in threads_named:
            fail("thread %r has slices but no thread_name" % (thread,))
        lst.sort(key=lambda s: (s[0], -(s[1] - s[0])))
        stack = []
        for start, end, name in lst:
            while stack and stack[-1][1] <= start:
                stack.pop()
            if stack and end > stack[-1][1]:
                fail("slices %r [%d, %d] and %r [%d, %d] overlap on thread %r"
                     % (stack[-1][2], stack[-1][0], stack[-1][1], name, start, end, thread))
            stack.append((start, end, name))

    def enclosed(thread, ts):
        return any(s <= ts <= e for s, e, _ in slices.get(thread, []))

    for key, (ts, thread) in flows_s.items():
        if not enclosed(thread, ts):
            fail("flow %r starts outside any slice of its thread" % (key,))
    for key, ts, thread, bp, where in flows_f:
        if key not in flows_s:
            fail("%s: flow %r ends without a start" % (where, key))
        if ts < flows_s[key][0]:
            fail("%s: flow %r ends before it starts" % (where, key))
        if bp != "e" or not enclosed(thread, ts):
            fail("%s: flow %r does not end in an enclosing slice" % (where, key))

    for name in expect:
        if name not in names:
            fail("no slice or instant named %r" % name)
    print("trace_check: %s: %d events (%s), %d threads with slices, %d flows: valid"
          % (path, len(doc["traceEvents"]),
             " ".join("%s=%d" % kv for kv in sorted(counts.items())),
             len(slices), len(flows_f)))


main()
