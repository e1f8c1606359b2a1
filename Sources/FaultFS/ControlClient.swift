import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends control requests to a daemon: one connection per request, one line each way.
public struct ControlClient: Sendable {
    public let socketPath: String

    public init(socketPath: String) { self.socketPath = socketPath }

    /// Sends one raw line and returns the raw reply line (no trailing newline).
    public func send(line: Data, timeoutSeconds: Int = 120) throws -> Data {
        let fd = try UnixSocket.connect(socketPath, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        var out = line
        out.append(UInt8(ascii: "\n"))
        guard UnixSocket.writeAll(fd, out) else { throw FaultFSError.control("cannot send to \(socketPath)") }
        var reader = LineReader(fd: fd)
        switch reader.next() {
        case .line(let reply): return reply
        case .eof: throw FaultFSError.control("daemon closed the connection without a reply")
        case .tooLong: throw FaultFSError.control("reply too long")
        case .error(let e): throw FaultFSError.control("no reply from \(socketPath): \(String(cString: strerror(e)))")
        }
    }

    /// Sends a request; returns the reply (which may be `ok: false`).
    public func send(_ request: ControlRequest) throws -> ControlReply {
        let reply = try send(line: JSONEncoder().encode(request))
        do {
            return try JSONDecoder().decode(ControlReply.self, from: reply)
        } catch {
            throw FaultFSError.control("undecodable reply: \(String(decoding: reply, as: UTF8.self))")
        }
    }

    /// Sends a request and throws the daemon's error message when the reply is not ok.
    @discardableResult
    public func call(_ request: ControlRequest) throws -> ControlReply {
        let reply = try send(request)
        guard reply.ok else { throw FaultFSError.control(reply.error ?? "request failed") }
        return reply
    }
}
