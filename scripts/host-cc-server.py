#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""host-cc-server.py - runs the dev VM's builds on the host for `make cts`.

usage: host-cc-server.py SPOOL VACCEL_CC

The guest's host-cc (scripts/guest/host-cc.c) leaves a request in SPOOL, a
directory that guest and host share at the same path: ID.req holds the
working directory, the arguments and the VACCEL_* environment of one run of
vaccel-cc, each string ending in a NUL (an empty string ends the
arguments).  This server runs VACCEL_CC with them, two runs at a time, and
answers with ID.out and ID.err, then ID.status (written aside and renamed,
so that the guest never reads half of it).  It ends when SPOOL/stop
appears, when its parent (cts.sh) is gone, or when it is killed.
"""
import os
import subprocess
import sys
import threading
import time


def answer(spool, name, cc):
    """Runs the request SPOOL/NAME and writes its three answers."""
    base = os.path.join(spool, name[:-len('.req')])
    try:
        with open(os.path.join(spool, name), 'rb') as f:
            fields = f.read().split(b'\0')
        os.unlink(os.path.join(spool, name))
        cwd = fields[0]
        end = fields.index(b'', 1)
        args = fields[1:end]
        env = {k: v for k, v in os.environ.items() if not k.startswith('VACCEL_')}
        env = {k.encode(): v.encode() for k, v in env.items()}
        for kv in fields[end + 1:]:
            if b'=' in kv:
                k, v = kv.split(b'=', 1)
                env[k] = v
        with open(base + '.out', 'wb') as out, open(base + '.err', 'wb') as err:
            code = subprocess.call([cc.encode()] + args, cwd=cwd, env=env,
                                   stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    except Exception as e:  # whatever went wrong, the guest gets an answer
        with open(base + '.err', 'ab') as err:
            err.write(('host-cc-server: %s\n' % e).encode())
        code = 1
    if code < 0:
        code = 128 - code
    with open(base + '.st', 'w') as f:
        f.write('%d\n' % code)
    os.rename(base + '.st', base + '.status')


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split('\n\n')[1])
    spool, cc = sys.argv[1], sys.argv[2]
    slots = threading.Semaphore(2)
    taken = set()
    parent = os.getppid()

    def run(name):
        try:
            answer(spool, name, cc)
        finally:
            slots.release()

    while not os.path.exists(os.path.join(spool, 'stop')) and os.getppid() == parent:
        names = [n for n in os.listdir(spool) if n.endswith('.req') and n not in taken]
        for name in sorted(names):
            slots.acquire()
            taken.add(name)
            threading.Thread(target=run, args=(name,), daemon=True).start()
        if not names:
            time.sleep(0.002)
        taken &= set(os.listdir(spool))


if __name__ == '__main__':
    main()
