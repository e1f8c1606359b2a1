import Foundation
import CFuse3
import CLifeboatSys
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

extension MountTests {
    /// The mount behaves like a native file system where programs notice: umask, ownership, mknod,
    /// set-ID bits, timestamps, link counts, extended attributes, and MAP_SHARED with `--mmap`.
    @Suite struct POSIXTests {
        static func mode(_ path: String) -> mode_t {
            var st = stat()
            return lstat(path, &st) == 0 ? st.st_mode : 0
        }

        static func info(_ path: String) -> Glibc.stat? {
            var st = Glibc.stat()
            return lstat(path, &st) == 0 ? st : nil
        }

        /// Lets an unprivileged user (uid/gid 1000) reach the mount.
        static func openToOthers(_ m: MountFixture) {
            chmod(m.root.path, 0o755)
            chmod(m.mnt.path, 0o777)
        }

        /// Runs a shell command as uid/gid 1000 (or as root when `user` is false).
        @discardableResult
        static func sh(_ command: String, asUser user: Bool = false) throws -> Int32 {
            if user {
                return try runProcess("/usr/bin/setpriv", ["--reuid", "1000", "--regid", "1000", "--clear-groups", "/bin/sh", "-c", command]).status
            }
            return try runProcess("/bin/sh", ["-c", command]).status
        }

        @Test func onlyTheCallersUmaskApplies() throws {
            try withMount { m in
                let status1 = try Self.sh("umask 0; cd \(m.mnt.path) && touch f && mkdir d")
                #expect(status1 == 0)
                #expect(Self.mode(m.path("f")) & 0o7777 == 0o666)
                #expect(Self.mode(m.path("d")) & 0o7777 == 0o777)
                let status2 = try Self.sh("umask 027; cd \(m.mnt.path) && touch g && mkdir e")
                #expect(status2 == 0)
                #expect(Self.mode(m.path("g")) & 0o7777 == 0o640)
                #expect(Self.mode(m.path("e")) & 0o7777 == 0o750)
            }
        }

        @Test func newEntriesBelongToTheCaller() throws {
            try withMount { m in
                Self.openToOthers(m)
                let status3 = try Self.sh("cd \(m.mnt.path) && touch f && mkdir d && ln -s f s && mkfifo p", asUser: true)
                #expect(status3 == 0)
                for name in ["f", "d", "s", "p"] {
                    let st = Self.info(m.path(name))
                    #expect(st?.st_uid == 1000 && st?.st_gid == 1000, "\(name)")
                }
            }
        }

        @Test func mknodMakesFifosSocketsAndDevices() throws {
            try withMount { m in
                #expect(mkfifo(m.path("fifo"), 0o644) == 0)
                #expect(Self.mode(m.path("fifo")) & S_IFMT == S_IFIFO)
                #expect(Glibc.mknod(m.path("sock"), S_IFSOCK | 0o644, 0) == 0)
                #expect(Self.mode(m.path("sock")) & S_IFMT == S_IFSOCK)
                #expect(Glibc.mknod(m.path("null"), S_IFCHR | 0o644, dev_t(1 << 8 | 3)) == 0)
                #expect(Self.info(m.path("null")).map { $0.st_mode & S_IFMT == S_IFCHR && $0.st_rdev == dev_t(1 << 8 | 3) } == true)
                // A Unix socket bound on the mount.
                let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                defer { close(fd) }
                var addr = sockaddr_un()
                addr.sun_family = sa_family_t(AF_UNIX)
                let p = m.path("bound")
                withUnsafeMutableBytes(of: &addr.sun_path) { b in p.utf8CString.withUnsafeBytes { b.copyMemory(from: $0) } }
                let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
                #expect(r == 0)
                #expect(Self.mode(p) & S_IFMT == S_IFSOCK)
                // Entries made by mknod are pending like any create: a crash without a directory fsync drops them.
                try m.fs.crash(.keepNone)
                #expect(!Posix.exists(m.path("fifo")))
            }
        }

        /// Every way another user changes a file's contents clears its set-ID bits as natively: append, O_TRUNC,
        /// truncate, fallocate, copy_file_range; compared against a file on the backing file system.
        @Test func setIDBitsClearLikeNativeOnEveryContentChange() throws {
            try withMount { m in
                Self.openToOthers(m)
                let native = m.root.appendingPathComponent("native").path
                #expect(mkdir(native, 0o777) == 0 && chmod(native, 0o777) == 0)
                let commands = ["printf x >> {F}", ": > {F}", "truncate -s 10 {F}", "fallocate -l 8192 {F}", "fallocate -p -o 0 -l 2 {F}",
                                "cp --reflink=never {S} {F}"]
                for (i, command) in commands.enumerated() {
                    for mode: mode_t in [0o6777, 0o6767, 0o4757, 0o2766] {
                        var seen: [mode_t] = []
                        for dir in [native, m.mnt.path] {
                            let f = "\(dir)/f\(i)-\(mode)", src = "\(dir)/s\(i)-\(mode)"
                            #expect(Posix.write(f, [1, 2, 3]) == .ok(3) && Posix.write(src, [9]) == .ok(1))
                            #expect(chmod(f, mode) == 0 && chmod(src, 0o644) == 0)
                            let cmd = command.replacingOccurrences(of: "{F}", with: f).replacingOccurrences(of: "{S}", with: src)
                            let status = try Self.sh(cmd, asUser: true)
                            #expect(status == 0, "\(cmd)")
                            seen.append(Self.mode(f) & 0o7777)
                        }
                        #expect(seen[0] == seen[1], "\(command) on mode \(String(mode, radix: 8)): native \(String(seen[0], radix: 8)), FaultFS \(String(seen[1], radix: 8))")
                    }
                }
            }
        }

        /// Whether a content change clears set-ID bits follows the writer's CAP_FSETID, not who it is: the owner
        /// without it clears them, root without it too, another user holding it keeps them (the kernel's
        /// setattr_should_drop_suidgid); each case compared against a file on the backing file system.
        @Test func setIDBitsFollowCapabilityNotIdentity() throws {
            try withMount { m in
                Self.openToOthers(m)
                let native = m.root.appendingPathComponent("native").path
                #expect(mkdir(native, 0o777) == 0 && chmod(native, 0o777) == 0)
                let nobody = ["/usr/bin/setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
                let writers: [(name: String, owner: uid_t, prefix: [String])] = [
                    ("the owner (65534)", 65534, nobody),
                    ("root without CAP_FSETID", 0, ["/usr/bin/setpriv", "--bounding-set", "-fsetid", "--inh-caps", "-fsetid"]),
                    ("65534 with CAP_FSETID", 0, nobody + ["--inh-caps", "+fsetid", "--ambient-caps", "+fsetid"]),
                ]
                for (w, writer) in writers.enumerated() {
                    for (c, command) in ["printf x >> {F}", ": > {F}", "truncate -s 10 {F}"].enumerated() {
                        for mode: mode_t in [0o6777, 0o6767, 0o2766] {
                            var seen: [mode_t] = []
                            for dir in [native, m.mnt.path] {
                                let f = "\(dir)/w\(w)-c\(c)-\(String(mode, radix: 8))"
                                #expect(Posix.write(f, [1, 2, 3]) == .ok(3))
                                #expect(chown(f, writer.owner, writer.owner) == 0 && chmod(f, mode) == 0)
                                let cmd = command.replacingOccurrences(of: "{F}", with: f)
                                let status = try runProcess(writer.prefix[0], Array(writer.prefix.dropFirst()) + ["/bin/sh", "-c", cmd]).status
                                #expect(status == 0, "\(writer.name): \(cmd)")
                                seen.append(Self.mode(f) & 0o7777)
                            }
                            #expect(seen[0] == seen[1], """
                                \(writer.name), \(command) on mode \(String(mode, radix: 8)): native \(String(seen[0], radix: 8)), \
                                FaultFS \(String(seen[1], radix: 8))
                                """)
                        }
                    }
                }
            }
        }

        /// SEEK_DATA/SEEK_HOLE over unsynced data answer as the backing file system does for the same calls:
        /// unsynced writes are data, punched or truncated-away ranges are holes, per block.
        @Test func seekDataAndHoleOverUnsyncedDataMatchNative() throws {
            try withMount { m in
                let native = m.root.appendingPathComponent("native-seek").path
                var answers: [[Int64]] = []
                for path in [native, m.path("seek")] {
                    let fd = open(path, O_RDWR | O_CREAT, 0o644)
                    #expect(fd >= 0)
                    defer { close(fd) }
                    let block = [UInt8](repeating: 7, count: 8192)
                    // Durable: data at [0, 8192) and [65536, 73728) with a hole between.
                    #expect(block.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == 8192)
                    #expect(block.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 65536) } == 8192)
                    #expect(Glibc.fsync(fd) == 0)
                    // Unsynced: a small write in the hole, a punched block, an extension by truncate.
                    #expect(block.withUnsafeBytes { pwrite(fd, $0.baseAddress, 100, 20000) } == 100)
                    #expect(lb_fallocate(fd, LB_FALLOC_FL_PUNCH_HOLE | LB_FALLOC_FL_KEEP_SIZE, 0, 4096) == 0)
                    #expect(ftruncate(fd, 200_000) == 0)
                    var row: [Int64] = []
                    for offset: Int64 in [0, 100, 4096, 5000, 8192, 16384, 20050, 24576, 65536, 70000, 73728, 199_999, 200_000] {
                        for whence in [LB_SEEK_DATA, LB_SEEK_HOLE] {
                            let r = Int64(lseek(fd, off_t(offset), whence))
                            row.append(r < 0 ? -Int64(errno) : r)
                        }
                    }
                    answers.append(row)
                }
                #expect(answers[0] == answers[1], "native \(answers[0])\nFaultFS \(answers[1])")
            }
        }

        @Test func aWriteByAnotherUserClearsSetIDBits() throws {
            try withMount { m in
                Self.openToOthers(m)
                #expect(Posix.write(m.path("suid"), [1, 2, 3]) == .ok(3))
                #expect(chmod(m.path("suid"), 0o6777) == 0)
                let status4 = try Self.sh("printf x >> \(m.path("suid"))", asUser: true)
                #expect(status4 == 0)
                #expect(Self.mode(m.path("suid")) & (S_ISUID | S_ISGID) == 0)
                // Root (CAP_FSETID) keeps them, as natively.
                #expect(chmod(m.path("suid"), 0o6777) == 0)
                #expect(Posix.write(m.path("suid"), [4], at: 3, flags: O_WRONLY) == .ok(1))
                #expect(Self.mode(m.path("suid")) & (S_ISUID | S_ISGID) == S_ISUID | S_ISGID)
            }
        }

        @Test func writesAndTruncatesUpdateModificationAndChangeTimes() throws {
            try withMount { m in
                #expect(Posix.write(m.path("t"), [1, 2, 3]) == .ok(3))
                let past = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
                #expect(utimensat(AT_FDCWD, m.path("t"), past, 0) == 0)
                #expect(Posix.write(m.path("t"), [9], at: 1, flags: O_WRONLY) == .ok(1))
                let now = Int(time(nil))
                #expect((Self.info(m.path("t"))?.st_mtim.tv_sec ?? 0) >= now - 5)
                #expect(utimensat(AT_FDCWD, m.path("t"), past, 0) == 0)
                #expect(truncate(m.path("t"), 1) == 0)
                #expect((Self.info(m.path("t"))?.st_mtim.tv_sec ?? 0) >= now - 5)
                #expect(utimensat(AT_FDCWD, m.path("t"), past, 0) == 0)
                let fd = open(m.path("t"), O_WRONLY | O_TRUNC)
                close(fd)
                #expect((Self.info(m.path("t"))?.st_mtim.tv_sec ?? 0) >= now - 5)
                #expect((Self.info(m.path("t"))?.st_ctim.tv_sec ?? 0) >= now - 5)
            }
        }

        @Test func linkCountDropsWhenOneOfTwoLinksIsRemoved() throws {
            try withMount { m in
                #expect(Posix.write(m.path("a"), [1]) == .ok(1))
                #expect(link(m.path("a"), m.path("b")) == 0)
                #expect(Self.info(m.path("a"))?.st_nlink == 2)
                #expect(unlink(m.path("b")) == 0)
                #expect(Self.info(m.path("a"))?.st_nlink == 1)
                let fd = open(m.path("a"), O_RDONLY)
                defer { close(fd) }
                var st = Glibc.stat()
                #expect(fstat(fd, &st) == 0 && st.st_nlink == 1)
            }
        }

        @Test func extendedAttributesPassThrough() throws {
            try withMount { m in
                #expect(Posix.write(m.path("x"), [1]) == .ok(1))
                let value = Array("hello".utf8)
                #expect(value.withUnsafeBytes { setxattr(m.path("x"), "user.lifeboat", $0.baseAddress, $0.count, 0) } == 0)
                var buf = [UInt8](repeating: 0, count: 64)
                let n = buf.withUnsafeMutableBytes { getxattr(m.path("x"), "user.lifeboat", $0.baseAddress, $0.count) }
                #expect(n == value.count && Array(buf.prefix(max(0, n))) == value)
                var list = [CChar](repeating: 0, count: 256)
                let ln = listxattr(m.path("x"), &list, list.count)
                let names = String(decoding: list.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                #expect(ln > 0 && names == "user.lifeboat")
                #expect(removexattr(m.path("x"), "user.lifeboat") == 0)
                #expect(getxattr(m.path("x"), "user.lifeboat", nil, 0) == -1 && errno == ENODATA)
                // The backing file carries them (what rsync -X, borg and restic read back).
                #expect(value.withUnsafeBytes { setxattr(m.path("x"), "user.lifeboat", $0.baseAddress, $0.count, 0) } == 0)
                var b = [UInt8](repeating: 0, count: 8)
                #expect(getxattr(m.backingPath("x"), "user.lifeboat", &b, b.count) == value.count)
            }
        }

        @Test func mmapModeAllowsSharedMappings() throws {
            try withMount(arguments: ["--mmap"]) { m in
                #expect(Posix.write(m.path("mapped"), [UInt8](repeating: 0, count: 4096), fsync: true) == .ok(4096))
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                let fd = open(m.path("mapped"), O_RDWR)
                defer { close(fd) }
                guard let p = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), p != MAP_FAILED else {
                    Issue.record("mmap MAP_SHARED failed: \(errno)")
                    return
                }
                p.storeBytes(of: 0x42, toByteOffset: 100, as: UInt8.self)
                #expect(msync(p, 4096, MS_SYNC) == 0)
                munmap(p, 4096)
                #expect(Posix.contents(m.path("mapped"))?[100] == 0x42)
                #expect(Glibc.fsync(fd) == 0)
                #expect(Posix.contents(m.backingPath("mapped"))?[100] == 0x42)
            }
        }
    }
}
