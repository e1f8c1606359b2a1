#!/usr/bin/env python3
"""Processes racing namespace and data changes on the same names, checked against what POSIX promises.

    namespace-races.py WORKLOAD DIR SECONDS [RENAMES]     (rename-over-reader: SECONDS caps the run)

Runs one workload in DIR (a FaultFS mount or a plain directory, for comparison): a driver forks the racing
processes (Python is single-threaded here, so fork is safe), waits for them and prints one JSON object:
{"workload", "ops": {role: count}, "failures": {kind: count}, "allowed": {kind: count}, "examples": [...]}.
Every check is one a native file system always passes, whatever the timing: a failure is an errno or a
content that natively never happens, so the count must be 0 on both sides. `allowed` counts outcomes that
are fine natively too (ENOENT for a name that comes and goes). Workloads:

  rename-over-reader  one process writes RENAMES (default 400) fresh files and renames each over `name` (and
                      reads the version it just renamed back); readers open and read `name` and stat it in a
                      loop: every open, read and stat succeeds and sees one whole version, never older than
                      the last version that reader saw
  link-unlink         link(a, b) and unlink(b) in a loop (each followed by the link counts it leaves) while
                      others stat/open/read a (always there, one or two links) and b (there or ENOENT, and
                      then the same inode and content as a)
  exchange            renameat2(RENAME_EXCHANGE) of a and b in a loop; readers open, read and stat both:
                      always there, content one of the two
  truncate            truncate/ftruncate to 0, 8192 and 4096 and rewrites while readers stat, open and read:
                      sizes 0, 4096 or 8192, content a prefix of 4096 'x' then zeros
  dir-rename-open     d1 <-> d2 renamed back and forth while processes use a descriptor of the directory
                      (openat, fstatat, a file rename inside it) and files opened before (fstat, pread,
                      pwrite): every call succeeds
"""
import ctypes
import errno
import json
import os
import sys
import time

WORKLOAD, DIR, SECONDS = sys.argv[1], sys.argv[2], float(sys.argv[3])
RENAMES = int(sys.argv[4]) if len(sys.argv) > 4 else 400
SIZE = 8192
libc = ctypes.CDLL(None, use_errno=True)
RENAME_EXCHANGE = 2


def p(name):
    return os.path.join(DIR, name)


def version_bytes(v):
    line = b"v%07d\n" % v  # 9 bytes
    body = line * (SIZE // len(line))
    return body + b"." * (SIZE - len(body))


def parse_version(data):
    """The version a whole file holds, or None when it is not one whole version."""
    if len(data) != SIZE:
        return None
    v = data[1:8]
    if not v.isdigit():
        return None
    return int(v) if data == version_bytes(int(v)) else None


def write_file(path, data):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def read_file(path, dir_fd=None):
    fd = os.open(path, os.O_RDONLY, dir_fd=dir_fd)
    try:
        chunks = []
        while True:
            b = os.read(fd, 65536)
            if not b:
                break
            chunks.append(b)
        return b"".join(chunks)
    finally:
        os.close(fd)


class Tally:
    def __init__(self, role):
        self.role, self.ops, self.failures, self.allowed, self.examples = role, 0, {}, {}, []

    def fail(self, kind, detail=""):
        self.failures[kind] = self.failures.get(kind, 0) + 1
        if len(self.examples) < 5:
            self.examples.append(f"{self.role}: {kind} {detail}".strip())

    def allow(self, kind):
        self.allowed[kind] = self.allowed.get(kind, 0) + 1

    def err(self, op, e):
        return f"{op}:{errno.errorcode.get(e.errno, e.errno)}"

    def report(self):
        return {"role": self.role, "ops": self.ops, "failures": self.failures, "allowed": self.allowed,
                "examples": self.examples}


def until(deadline, stop_file=None):
    if time.monotonic() >= deadline:
        return False
    return stop_file is None or not os.path.exists(stop_file)


# MARK: workloads: setup(), then roles (name -> function(tally, deadline, stop_file))

def rename_over_reader():
    write_file(p("name"), version_bytes(0))

    def renamer(t, deadline, stop):
        for v in range(1, RENAMES + 1):
            try:
                write_file(p(f"tmp.{v}"), version_bytes(v))
                os.rename(p(f"tmp.{v}"), p("name"))
                # The only renamer: once its rename returned, the name is that version.
                if parse_version(read_file(p("name"))) != v:
                    t.fail("not-the-new-version-after-rename", f"version {v}")
            except OSError as e:
                t.fail(t.err("renamer", e), f"version {v}")
            t.ops += 1
        open(stop, "w").close()

    def reader(t, deadline, stop):
        last = 0
        while until(deadline, stop):
            t.ops += 1
            try:
                data = read_file(p("name"))
            except OSError as e:
                t.fail(t.err("open-read", e))
                continue
            v = parse_version(data)
            if v is None:
                t.fail("neither-old-nor-new", f"{len(data)} bytes: {data[:9]!r}")
            elif v < last:
                t.fail("went-back", f"version {v} after {last}")
            else:
                last = v

    def stater(t, deadline, stop):
        while until(deadline, stop):
            t.ops += 1
            try:
                st = os.stat(p("name"))
                if st.st_size != SIZE:
                    t.fail("stat-size", str(st.st_size))
            except OSError as e:
                t.fail(t.err("stat", e))

    return {"renamer": renamer, "reader": reader, "reader2": reader, "stater": stater}, True


def link_unlink():
    content = version_bytes(7)
    write_file(p("a"), content)

    def linker(t, deadline, stop):
        # The only process changing links: what it sees right after each change is exact.
        while until(deadline):
            t.ops += 1
            try:
                os.link(p("a"), p("b"))
                na, nb = os.stat(p("a")).st_nlink, os.stat(p("b")).st_nlink
                if (na, nb) != (2, 2):
                    t.fail("nlink-after-link", f"a {na}, b {nb}")
                os.unlink(p("b"))
                na = os.stat(p("a")).st_nlink
                if na != 1:
                    t.fail("nlink-after-unlink", f"a {na}")
            except OSError as e:
                t.fail(t.err("link-unlink", e))

    def watcher(t, deadline, stop):
        while until(deadline):
            t.ops += 1
            try:
                sa = os.stat(p("a"))
                if sa.st_nlink not in (1, 2):
                    t.fail("a-nlink", str(sa.st_nlink))
            except OSError as e:
                t.fail(t.err("stat-a", e))
                continue
            try:
                sb = os.stat(p("b"))
                if sb.st_ino != sa.st_ino or sb.st_nlink not in (1, 2):
                    t.fail("b-not-a", f"ino {sb.st_ino} vs {sa.st_ino}, nlink {sb.st_nlink}")
            except FileNotFoundError:
                t.allow("stat-b:ENOENT")
            except OSError as e:
                t.fail(t.err("stat-b", e))

    def opener(t, deadline, stop):
        while until(deadline):
            t.ops += 1
            for name in ("a", "b"):
                try:
                    if read_file(p(name)) != content:
                        t.fail(f"{name}-content")
                except FileNotFoundError:
                    if name == "a":
                        t.fail("open-a:ENOENT")
                    else:
                        t.allow("open-b:ENOENT")
                except OSError as e:
                    t.fail(t.err(f"open-{name}", e))

    return {"linker": linker, "watcher": watcher, "opener": opener}, False


def exchange():
    a, b = version_bytes(1), version_bytes(2)
    write_file(p("a"), a)
    write_file(p("b"), b)
    renameat2 = libc.renameat2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    AT_FDCWD = -100

    def exchanger(t, deadline, stop):
        while until(deadline):
            t.ops += 1
            if renameat2(AT_FDCWD, p("a").encode(), AT_FDCWD, p("b").encode(), RENAME_EXCHANGE) != 0:
                e = ctypes.get_errno()
                t.fail(f"exchange:{errno.errorcode.get(e, e)}")

    def reader(t, deadline, stop):
        while until(deadline):
            t.ops += 1
            for name in ("a", "b"):
                try:
                    if read_file(p(name)) not in (a, b):
                        t.fail("neither-old-nor-new", name)
                    if os.stat(p(name)).st_size != SIZE:
                        t.fail("stat-size", name)
                except OSError as e:
                    t.fail(t.err(f"open-stat-{name}", e))

    return {"exchanger": exchanger, "reader": reader, "reader2": reader}, False


def truncate():
    pattern = b"x" * 4096 + b"\0" * 4096
    write_file(p("t"), b"x" * 4096)

    def truncater(t, deadline, stop):
        while until(deadline):
            t.ops += 1
            try:
                os.truncate(p("t"), 0)
                fd = os.open(p("t"), os.O_WRONLY)
                try:
                    os.pwrite(fd, b"x" * 4096, 0)
                    os.ftruncate(fd, 8192)
                    os.ftruncate(fd, 4096)
                finally:
                    os.close(fd)
            except OSError as e:
                t.fail(t.err("truncate-write", e))

    def reader(t, deadline, stop):
        while until(deadline):
            t.ops += 1
            try:
                size = os.stat(p("t")).st_size
                if size not in (0, 4096, 8192):
                    t.fail("stat-size", str(size))
                data = read_file(p("t"))
                if data != pattern[:len(data)]:
                    t.fail("content", f"{len(data)} bytes")
            except OSError as e:
                t.fail(t.err("stat-open-read", e))

    return {"truncater": truncater, "reader": reader, "reader2": reader}, False


def dir_rename_open():
    os.mkdir(p("d1"))
    content = version_bytes(3)
    write_file(p("d1/f"), content)
    write_file(p("d1/g"), version_bytes(0))
    # Opened before the race (the children inherit them): a directory and a file in it.
    dfd = os.open(p("d1"), os.O_RDONLY | os.O_DIRECTORY)
    held = os.open(p("d1/f"), os.O_RDWR)

    def mover(t, deadline, stop):
        while until(deadline):
            t.ops += 1
            try:
                os.rename(p("d1"), p("d2"))
                os.rename(p("d2"), p("d1"))
            except OSError as e:
                t.fail(t.err("rename-dir", e))

    def inside(t, deadline, stop):
        v = 0
        while until(deadline):
            t.ops += 1
            v += 1
            try:
                if read_file("f", dir_fd=dfd) != content:
                    t.fail("openat-content")
                os.stat("f", dir_fd=dfd)
                fd = os.open(f"tmp{os.getpid()}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644, dir_fd=dfd)
                os.write(fd, version_bytes(v))
                os.close(fd)
                os.rename(f"tmp{os.getpid()}", "g", src_dir_fd=dfd, dst_dir_fd=dfd)
                if parse_version(read_file("g", dir_fd=dfd)) is None:
                    t.fail("g-content")
            except OSError as e:
                t.fail(t.err("at-dirfd", e))

    def holder(t, deadline, stop):
        while until(deadline):
            t.ops += 1
            try:
                os.fstat(held)
                if os.pread(held, SIZE, 0) != content:
                    t.fail("pread-content")
                os.pwrite(held, content[:4096], 0)
            except OSError as e:
                t.fail(t.err("held-fd", e))

    return {"mover": mover, "inside": inside, "holder": holder}, False


WORKLOADS = {"rename-over-reader": rename_over_reader, "link-unlink": link_unlink, "exchange": exchange,
             "truncate": truncate, "dir-rename-open": dir_rename_open}


def main():
    if WORKLOAD not in WORKLOADS:
        print(f"unknown workload {WORKLOAD}; one of {', '.join(WORKLOADS)}", file=sys.stderr)
        sys.exit(2)
    roles, until_stop = WORKLOADS[WORKLOAD]()
    stop = os.path.join(DIR, ".races-stop") if until_stop else None
    # Every role starts at once (a pipe as the start gate), then runs until the deadline or the stop file.
    gate_r, gate_w = os.pipe()
    children = []
    for name, role in roles.items():
        out_r, out_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(out_r)
            os.close(gate_w)
            os.read(gate_r, 1)
            t = Tally(name)
            try:
                # rename-over-reader ends with its renames: SECONDS is then only a cap against a hang.
                role(t, time.monotonic() + SECONDS, stop)
            except Exception as e:  # a checker bug must show, not pass
                t.fail("exception", repr(e))
            os.write(out_w, json.dumps(t.report()).encode())
            os._exit(0)
        os.close(out_w)
        children.append((pid, out_r))
    os.close(gate_w)
    summary = {"workload": WORKLOAD, "ops": {}, "failures": {}, "allowed": {}, "examples": []}
    for pid, out_r in children:
        data = b""
        while True:
            b = os.read(out_r, 65536)
            if not b:
                break
            data += b
        os.waitpid(pid, 0)
        r = json.loads(data) if data else {"role": f"pid {pid}", "ops": 0, "failures": {"no-report": 1},
                                            "allowed": {}, "examples": []}
        summary["ops"][r["role"]] = r["ops"]
        for key in ("failures", "allowed"):
            for k, n in r[key].items():
                summary[key][k] = summary[key].get(k, 0) + n
        summary["examples"] += r["examples"]
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
