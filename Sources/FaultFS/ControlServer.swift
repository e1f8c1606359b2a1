import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's control socket: accepts connections on a Unix socket outside the mount and answers one
/// JSON reply per request line, each connection on its own thread (requests are rare and short).
final class ControlServer: Sendable {
    let path: String
    private let listenFD: Int32
    private let closed = Atomic<Bool>(false)

    /// Binds and listens (replacing a stale socket file left by a dead daemon).
    init(path: String, handler: @escaping @Sendable (Data) -> Data) throws {
        self.path = path
        var addr = try UnixSocket.address(path)
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw FaultFSError.badRequest("control path \(path) exists and is not a socket")
            }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw FaultFSError.io("socket: \(String(cString: strerror(errno)))") }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if r != 0 || listen(fd, 16) != 0 {
            let e = errno
            close(fd)
            throw FaultFSError.io("cannot listen on \(path): \(String(cString: strerror(e)))")
        }
        listenFD = fd
        let me = self
        Thread.detachNewThread { me.acceptLoop(handler) }
    }

    private func acceptLoop(_ handler: @escaping @Sendable (Data) -> Data) {
        while !closed.load(ordering: .relaxed) {
            let c = accept(listenFD, nil, nil)
            if c < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            _ = fcntl(c, F_SETFD, FD_CLOEXEC)
            Thread.detachNewThread { ControlServer.serve(c, handler) }
        }
    }

    private static func serve(_ fd: Int32, _ handler: @Sendable (Data) -> Data) {
        defer { close(fd) }
        var reader = LineReader(fd: fd)
        while true {
            switch reader.next() {
            case .line(let line):
                let trimmed = line.filter { $0 != UInt8(ascii: "\r") }
                if trimmed.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
                if !UnixSocket.writeAll(fd, handler(trimmed)) { return }
            case .tooLong:
                _ = UnixSocket.writeAll(fd, Data(#"{"ok":false,"error":"request line too long"}"#.utf8 + [10]))
                return
            case .eof, .error:
                return
            }
        }
    }

    func stop() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        shutdown(listenFD, Int32(SHUT_RDWR))
        close(listenFD)
        unlink(path)
    }
}
