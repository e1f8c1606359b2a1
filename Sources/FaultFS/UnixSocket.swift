import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Small helpers for AF_UNIX stream sockets shared by the control server and client.
enum UnixSocket {
    /// sun_path holds 108 bytes including the terminating NUL.
    static let maxPathLength = 107

    static func address(_ path: String) throws -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maxPathLength else {
            throw FaultFSError.badRequest("socket path too long (\(bytes.count) > \(maxPathLength) bytes): \(path)")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return addr
    }

    /// Connects to a listening socket; returns the descriptor.
    static func connect(_ path: String, timeoutSeconds: Int = 60) throws -> Int32 {
        var addr = try address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw FaultFSError.io("socket: \(String(cString: strerror(errno)))") }
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if r != 0 {
            let e = errno
            close(fd)
            throw FaultFSError.control("cannot connect to \(path): \(String(cString: strerror(e)))")
        }
        return fd
    }

    static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { b in
            var done = 0
            while done < b.count {
                let n = send(fd, b.baseAddress!.advanced(by: done), b.count - done, Int32(MSG_NOSIGNAL))
                if n < 0 { if errno == EINTR { continue }; return false }
                done += n
            }
            return true
        }
    }
}

/// Reads newline-terminated lines from a descriptor, keeping leftovers between calls.
struct LineReader {
    let fd: Int32
    let maxLine: Int
    private var buffer = Data()

    init(fd: Int32, maxLine: Int = 1 << 20) {
        self.fd = fd
        self.maxLine = maxLine
    }

    enum Outcome { case line(Data), eof, tooLong, error(Int32) }

    mutating func next() -> Outcome {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<nl]
                buffer = Data(buffer[(nl + 1)...])
                return .line(Data(line))
            }
            if buffer.count > maxLine { return .tooLong }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { if errno == EINTR { continue }; return .error(errno) }
            if n == 0 { return buffer.isEmpty ? .eof : .line(buffer) }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
