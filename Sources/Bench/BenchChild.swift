import Foundation
import GRDBSQLite
import StoreCheck
import StoreModel
import Strategies

/// What runs inside the fresh child process the bench starts for every round, so each measurement starts from
/// a clean address space and the kernel's peak RSS belongs to that one operation alone.
public enum BenchChild {
    /// One backup of `store` into `directory` with the named strategy.
    public static func backup(strategy name: String, store: URL, into directory: URL) throws -> ChildReport {
        let strategy = try StrategyCatalog.backup(named: name)
        let started = DispatchTime.now().uptimeNanoseconds
        let outcome = try strategy.backup(live: store, into: directory, model: .library, options: StrategyOptions())
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return ChildReport(mode: "backup", strategy: name, seconds: seconds,
                           sqliteMemoryHighwater: sqlite3_memory_highwater(0), io: ProcIO.current(), details: outcome.details)
    }

    /// `lifeboat check STORE` as the bench measures it: the verifier on one store, which must stream.
    public static func check(store: URL) throws -> ChildReport {
        let started = DispatchTime.now().uptimeNanoseconds
        let report = try StoreVerifier.verify(store)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return ChildReport(mode: "check", strategy: nil, seconds: seconds, sqliteMemoryHighwater: sqlite3_memory_highwater(0),
                           io: ProcIO.current(), details: ["violations": String(report.violations.count)])
    }

    /// The cached store for a size (generated when missing), as one JSON line for the parent.
    public static func prepareStore(cache: URL, targetBytes: Int64, blobFraction: Double, blobSize: Int, seed: UInt64) throws -> String {
        let entry = try StoreCache(root: cache).store(targetBytes: targetBytes, blobFraction: blobFraction, blobSize: blobSize, seed: seed) {
            FileHandle.standardError.write(Data(($0 + "\n").utf8))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(entry), as: UTF8.self)
    }

    /// Allocates `bytes` and writes to every page, so they count in the resident set: the bench's own check that
    /// peak RSS is read correctly.
    public static func allocate(bytes: Int) -> ChildReport {
        let started = DispatchTime.now().uptimeNanoseconds
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes, 1), alignment: 4096)
        defer { buffer.deallocate() }
        var offset = 0
        while offset < bytes {
            buffer.storeBytes(of: UInt8(truncatingIfNeeded: offset >> 12), toByteOffset: offset, as: UInt8.self)
            offset += 4096
        }
        var checksum = 0
        offset = 0
        while offset < bytes {
            checksum &+= Int(buffer.load(fromByteOffset: offset, as: UInt8.self))
            offset += 4096
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return ChildReport(mode: "allocate", strategy: nil, seconds: seconds, sqliteMemoryHighwater: sqlite3_memory_highwater(0),
                           io: ProcIO.current(), details: ["bytes": String(bytes), "checksum": String(checksum)])
    }
}
