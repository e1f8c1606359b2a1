import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Answers control requests (one JSON line in, one JSON line out). Never throws: bad input becomes an
/// error reply and the daemon keeps serving.
extension FaultFileSystem {
    func handleControl(_ line: Data) -> Data {
        let reply: ControlReply
        do {
            let req = try JSONDecoder().decode(ControlRequest.self, from: line)
            reply = answer(req)
        } catch let DecodingError.dataCorrupted(ctx) {
            reply = .failure("malformed request: \(ctx.debugDescription)\(Self.where(ctx.codingPath))")
        } catch let DecodingError.keyNotFound(key, ctx) {
            reply = .failure("malformed request: missing \"\(key.stringValue)\"\(Self.where(ctx.codingPath))")
        } catch let DecodingError.typeMismatch(_, ctx) {
            reply = .failure("malformed request: wrong type\(Self.where(ctx.codingPath)): \(ctx.debugDescription)")
        } catch let DecodingError.valueNotFound(_, ctx) {
            reply = .failure("malformed request: null value\(Self.where(ctx.codingPath))")
        } catch {
            reply = .failure("malformed request: \(error)")
        }
        var out = (try? JSONEncoder().encode(reply)) ?? Data(#"{"ok":false,"error":"cannot encode reply"}"#.utf8)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private static func `where`(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private func answer(_ req: ControlRequest) -> ControlReply {
        var reply = ControlReply(ok: true)
        switch req.verb {
        case .ping:
            reply.version = FaultFSVersion.protocolVersion
        case .arm:
            guard let rule = req.rule else { return .failure("arm needs \"rule\"") }
            switch faults.arm(rule) {
            case .success(let id):
                reply.id = id
                logOp(.arm, rule.path, result: 0) { $0.detail = id }
            case .failure(let e): return .failure(e.description)
            }
        case .disarm:
            guard let id = req.id else { return .failure("disarm needs \"id\"") }
            guard faults.disarm(id) else { return .failure("no rule with id \(id)") }
        case .clear:
            faults.clear()
        case .release:
            guard let id = req.id else { return .failure("release needs \"id\"") }
            reply.released = faults.release(rule: id)
        case .rules:
            reply.rules = faults.list()
        case .crash:
            switch req.crashMode() {
            case .success(let mode):
                reply.crash = crash(mode)
                faults.coverage.noteCrash()
                faults.thaw()
            case .failure(let e): return .failure(e.description)
            }
        case .syncAll:
            faults.coverage.noteSyncAll()
            reply.synced = syncAll()
        case .device:
            if let device = req.device {
                if let problem = device.validationError() { return .failure(problem) }
                faults.device.withLock { $0 = device }
            }
            reply.device = faults.device.withLock { $0 } ?? .default
        case .fsyncFailure:
            if let setting = req.fsyncFailure { fsyncFailure.withLock { $0 = setting.semantics } }
            reply.fsyncFailure = FsyncFailureSetting(fsyncFailure.withLock { $0 })
        case .coverage:
            reply.coverage = faults.coverage.snapshot()
            reply.frozen = faults.isFrozen
        case .status:
            reply.status = status()
        case .logMark:
            let seq = nextSeq()
            logOp(.mark, nil, result: 0, seq: seq) { $0.detail = req.label ?? "" }
            log?.flush()
            reply.seq = seq
        case .shutdown:
            requestStop()
        }
        return reply
    }

    /// Stops the FUSE loop: signals the loop thread (libfuse's handler ends the session). The reply to the
    /// shutdown request is sent first, so the signal goes out a moment later.
    func requestStop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        let t = loopThread.load(ordering: .relaxed)
        Thread.detachNewThread {
            usleep(50_000)
            if t != 0 { pthread_kill(pthread_t(t), SIGTERM) }
        }
    }
}
