import Foundation
import CLifeboatSys
import PropertyBased
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

/// One step of a random file system workload, applied identically to the mount and to a plain directory.
enum FsStep: Sendable, CustomStringConvertible {
    case create(Int), write(Int, offset: Int, length: Int, byte: UInt8), truncate(Int, size: Int)
    case rename(Int, Int), unlink(Int), mkdir(Int), rmdir(Int), read(Int, offset: Int, length: Int), fsync(Int)

    static let files = ["f0", "f1", "f2", "d0/f3", "d1/f4", "d0/d2/f5"]
    static let dirs = ["d0", "d1", "d0/d2"]

    init(kind: Int, a: Int, b: Int, c: Int, byte: Int) {
        let f = a % Self.files.count
        switch kind {
        case 0: self = .create(f)
        case 1, 2: self = .write(f, offset: b, length: c, byte: UInt8(byte))
        case 3: self = .truncate(f, size: b)
        case 4: self = .rename(f, c % Self.files.count)
        case 5: self = .unlink(f)
        case 6: self = .mkdir(a % Self.dirs.count)
        case 7: self = .rmdir(a % Self.dirs.count)
        case 8: self = .read(f, offset: b, length: c)
        default: self = .fsync(f)
        }
    }

    var description: String {
        switch self {
        case .create(let f): return "create \(Self.files[f])"
        case .write(let f, let o, let l, let b): return "write \(Self.files[f]) @\(o) x\(l) =\(b)"
        case .truncate(let f, let s): return "truncate \(Self.files[f]) \(s)"
        case .rename(let f, let g): return "rename \(Self.files[f]) \(Self.files[g])"
        case .unlink(let f): return "unlink \(Self.files[f])"
        case .mkdir(let d): return "mkdir \(Self.dirs[d])"
        case .rmdir(let d): return "rmdir \(Self.dirs[d])"
        case .read(let f, let o, let l): return "read \(Self.files[f]) @\(o) x\(l)"
        case .fsync(let f): return "fsync \(Self.files[f])"
        }
    }

    /// Runs the step under `root`; returns what the caller would observe.
    func apply(in root: String) -> Outcome {
        func p(_ f: Int) -> String { root + "/" + Self.files[f] }
        func r(_ v: Int32) -> Outcome { v == 0 ? .ok(0) : .err(errno) }
        switch self {
        case .create(let f):
            let fd = Glibc.open(p(f), O_CREAT | O_RDWR, 0o644)
            if fd < 0 { return .err(errno) }
            close(fd)
            return .ok(0)
        case .write(let f, let o, let l, let b):
            return Posix.write(p(f), [UInt8](repeating: b, count: l), at: Int64(o), flags: O_WRONLY)
        case .truncate(let f, let s): return r(Glibc.truncate(p(f), off_t(s)))
        case .rename(let f, let g): return r(Glibc.rename(p(f), p(g)))
        case .unlink(let f): return r(Glibc.unlink(p(f)))
        case .mkdir(let d): return r(Glibc.mkdir(root + "/" + Self.dirs[d], 0o755))
        case .rmdir(let d): return r(Glibc.rmdir(root + "/" + Self.dirs[d]))
        case .read(let f, let o, let l): return Posix.read(p(f), at: Int64(o), count: l)
        case .fsync(let f): return Posix.fsyncFile(p(f))
        }
    }
}

/// Names, types, sizes and contents of every entry under `root`, sorted.
func treeSnapshot(_ root: String) -> [String] {
    var out: [String] = []
    let fm = FileManager.default
    guard let names = try? fm.subpathsOfDirectory(atPath: root) else { return ["<unreadable>"] }
    for name in names.sorted() {
        var st = stat()
        lstat(root + "/" + name, &st)
        if (st.st_mode & S_IFMT) == S_IFDIR {
            out.append("\(name)/")
        } else {
            let bytes = Posix.contents(root + "/" + name) ?? []
            out.append("\(name) \(st.st_size) \(hex64(bytes.withUnsafeBytes { fnv1a64($0) }))")
        }
    }
    return out
}

extension MountTests {
    @Suite struct PassThroughTests {
        /// Random op sequences give the same results (bytes, errno) and the same final tree on the mount as
        /// on a plain directory; after sync-all the backing directory holds that same tree.
        @Test func randomOpSequencesMatchAPlainDirectory() async throws {
            let m = try MountFixture()
            defer { m.tearDown() }
            let reference = m.root.appendingPathComponent("reference").path
            try FileManager.default.createDirectory(atPath: reference, withIntermediateDirectories: true)
            let iteration = Mutex(0)
            let step = zip(Gen.int(in: 0...9), Gen.int(in: 0...11), Gen.int(in: 0...9000), Gen.int(in: 0...5000), Gen.int(in: 1...255))
                .map { FsStep(kind: $0.0, a: $0.1, b: $0.2, c: $0.3, byte: $0.4) }
            await propertyCheck(count: 30, input: step.array(of: 1...30)) { steps in
                let n = iteration.withLock { i -> Int in i += 1; return i }
                let onMount = m.path("run\(n)"), plain = reference + "/run\(n)"
                for dir in [onMount, plain] {
                    #expect(mkdir(dir, 0o755) == 0)
                    for d in ["d0", "d1", "d0/d2"] { #expect(mkdir(dir + "/" + d, 0o755) == 0) }
                }
                for s in steps {
                    let a = s.apply(in: onMount), b = s.apply(in: plain)
                    #expect(a == b, "\(s): mount \(a) vs plain \(b)")
                }
                #expect(treeSnapshot(onMount) == treeSnapshot(plain))
                _ = try m.fs.syncAll()
                #expect(treeSnapshot(m.backingPath("run\(n)")) == treeSnapshot(plain))
            }
        }

        @Test func symlinksHardLinksAttributesAndStatfsPassThrough() throws {
            try withMount { m in
                #expect(Posix.write(m.path("target"), Array("data".utf8)) == .ok(4))
                #expect(symlink("target", m.path("sl")) == 0)
                var buf = [CChar](repeating: 0, count: 64)
                #expect(readlink(m.path("sl"), &buf, 63) == 6)
                #expect(Posix.contents(m.path("sl")) == Array("data".utf8))
                #expect(link(m.path("target"), m.path("hard")) == 0)
                var st1 = stat(), st2 = stat()
                #expect(stat(m.path("target"), &st1) == 0 && stat(m.path("hard"), &st2) == 0)
                #expect(st1.st_ino == st2.st_ino)
                #expect(chmod(m.path("target"), 0o600) == 0)
                #expect(stat(m.path("target"), &st1) == 0 && (st1.st_mode & 0o777) == 0o600)
                var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 2_000_000, tv_nsec: 0)]
                #expect(utimensat(AT_FDCWD, m.path("target"), &times, 0) == 0)
                #expect(stat(m.path("target"), &st1) == 0 && st1.st_mtim.tv_sec == 2_000_000)
                var vfs = statvfs()
                #expect(statvfs(m.mnt.path, &vfs) == 0 && vfs.f_blocks > 0)
                #expect(access(m.path("target"), R_OK) == 0)
                #expect(access(m.path("missing"), F_OK) == -1 && errno == ENOENT)
            }
        }

        @Test func renameFlagsFallocateLseekAndCopyFileRange() throws {
            try withMount { m in
                #expect(Posix.write(m.path("a"), [1]) == .ok(1))
                #expect(Posix.write(m.path("b"), [2]) == .ok(1))
                #expect(lb_renameat2(AT_FDCWD, m.path("a"), AT_FDCWD, m.path("b"), UInt32(LB_RENAME_NOREPLACE)) == -1 && errno == EEXIST)
                #expect(lb_renameat2(AT_FDCWD, m.path("a"), AT_FDCWD, m.path("b"), UInt32(LB_RENAME_EXCHANGE)) == 0)
                #expect(Posix.contents(m.path("a")) == [2] && Posix.contents(m.path("b")) == [1])

                let fd = open(m.path("fa"), O_RDWR | O_CREAT, 0o644)
                #expect(fd >= 0)
                defer { close(fd) }
                #expect(posix_fallocate(fd, 0, 8192) == 0)
                var st = stat()
                #expect(fstat(fd, &st) == 0 && st.st_size == 8192)
                // Preallocated, never written: a hole, as ext4 reports unwritten extents.
                #expect(lseek(fd, 100, 3 /* SEEK_DATA */) == -1 && errno == ENXIO)
                #expect(lseek(fd, 0, 4 /* SEEK_HOLE */) == 0)

                let src = open(m.path("src"), O_RDWR | O_CREAT, 0o644)
                let dst = open(m.path("dst"), O_RDWR | O_CREAT, 0o644)
                defer { close(src); close(dst) }
                let payload = [UInt8]((0..<5000).map { UInt8($0 % 251) })
                #expect(payload.withUnsafeBytes { pwrite(src, $0.baseAddress, $0.count, 0) } == 5000)
                #expect(Glibc.fsync(src) == 0)
                var inOff: Int64 = 0, outOff: Int64 = 0
                var copied = 0
                while copied < 5000 {
                    let n = Int(lb_copy_file_range(src, &inOff, dst, &outOff, 5000 - copied, 0))
                    #expect(n > 0)
                    if n <= 0 { break }
                    copied += n
                }
                #expect(Posix.contents(m.path("dst")) == payload)
            }
        }
    }
}

import Synchronization
