import ChildProcesses
import Crypto
import Foundation
import GRDB
import Runner
import StoreCheck
import Reporting
import Strategies
import StoreModel

/// `lifeboat restore-drill`: a restore of the user's real, latest backup with their own restore program, into
/// scratch, checked for what users need (it opens; integrity; bookkeeping; the attachments resolve; it holds
/// objects; it is fresh enough; with the live store, `check --against`), with a dated evidence record (JSON,
/// `lifeboat.restore-drill/1`, schema in docs/schemas, and Markdown) an auditor can keep: the backup's checksum
/// and age, the restore program and its checksum, Lifeboat's and SQLite's versions, each check and its result.
///
/// Reports in 2026 show why each check is there: backups "verified" because they were larger than 1 KB, a
/// restored instance that answered its health check with 0 entries, a `.dump` that exited 0 and restored a 0-byte
/// database. The user's backup is never touched: the restore program gets a private copy.
struct RestoreDrill {
    struct Options {
        /// The backup as the user's tool produced it: a folder, an archive or a single file.
        var backup: URL
        /// The restore command line (shell), run from `workingDirectory` with LIFEBOAT_BACKUP and LIFEBOAT_STORE.
        var restore: String
        /// The restored store's file name (default: the one .sqlite in a backup folder, or the backup file's own
        /// name when it is a .sqlite, else Restored.sqlite).
        var storeName: String?
        /// The live store, for `check --against`.
        var live: URL?
        /// The oldest the backup may be, in seconds.
        var maxAge: Double?
        /// The fewest objects the restored store must hold.
        var minObjects = 1
        var scratch: URL
        var workingDirectory: URL
        var timeout: Double = 1800
        var now = Date()
    }

    enum Status: String, Codable { case pass, fail, skipped }

    struct Check: Codable, Equatable {
        var name: String
        var status: Status
        var detail: String
    }

    /// The evidence record (`lifeboat.restore-drill/1`).
    struct Evidence: Codable {
        struct Backup: Codable {
            var path: String
            var kind: String
            var bytes: Int64
            var files: Int
            /// SHA-256 of the file, or of a folder's sorted "relative-path sha256" lines.
            var sha256: String
            var modifiedAt: String
            var ageSeconds: Double
        }
        struct Restore: Codable {
            var command: String
            var programFile: String?
            var programSHA256: String?
            var exitCode: Int32
            var seconds: Double
            var outputTail: String
        }
        struct Restored: Codable {
            var storeName: String
            var bytes: Int64
            var objects: [String: Int]
            var externalReferences: Int
            var externalFiles: Int
        }
        var schema = "lifeboat.restore-drill/1"
        var drilledAt: String
        var lifeboatVersion: String
        var sqliteVersion: String
        var host: String
        var backup: Backup
        var restore: Restore
        var restored: Restored?
        var live: String?
        var maxAgeSeconds: Double?
        var checks: [Check]
        var passed: Bool
        /// Why it failed: each failed check's detail.
        var reasons: [String]
    }

    enum DrillError: Error { case badInput(String) }

    static func run(_ options: Options) throws -> Evidence {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: options.backup.path, isDirectory: &isDirectory) else {
            throw DrillError.badInput("--backup \(options.backup.path): no such file or folder")
        }
        if let live = options.live, !manager.fileExists(atPath: live.path) { throw DrillError.badInput("--live \(live.path): no such store") }
        if let reason = EnvironmentFailure.preflight(command: options.restore, directory: options.workingDirectory.path) {
            throw DrillError.badInput("--restore: \(reason)")
        }
        let folder = isDirectory.boolValue
        let files = try Self.files(options.backup, folder: folder)
        let newest = files.map(\.modified).max() ?? options.now
        let backup = Evidence.Backup(
            path: options.backup.standardizedFileURL.path,
            kind: folder ? "folder" : (Self.archiveSuffixes.contains { options.backup.lastPathComponent.hasSuffix($0) } ? "archive" : "file"),
            bytes: files.reduce(0) { $0 + $1.bytes }, files: files.count,
            sha256: folder ? Self.hex(Data(files.map { "\($0.relative) \($0.sha256)\n" }.joined().utf8)) : (files.first?.sha256 ?? ""),
            modifiedAt: ISO8601DateFormatter().string(from: newest), ageSeconds: max(0, options.now.timeIntervalSince(newest)))

        // A private copy of the backup for the restore program, and an empty folder for the store it restores.
        let run = options.scratch.appendingPathComponent("restore-drill-\(UUID().uuidString.prefix(8))")
        defer { try? manager.removeItem(at: run) }
        let copy = run.appendingPathComponent("backup").appendingPathComponent(options.backup.lastPathComponent)
        try manager.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try manager.copyItem(at: options.backup, to: copy)
        let name = options.storeName ?? Self.storeName(in: files.map(\.relative), backup: options.backup, folder: folder)
        let target = run.appendingPathComponent("restored").appendingPathComponent(name)
        try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let started = Date()
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "cd \(Self.quoted(options.workingDirectory.path)) && \(options.restore)"],
                                          environment: ["LIFEBOAT_BACKUP": copy.path, "LIFEBOAT_STORE": target.path], timeout: options.timeout)
        if let reason = result.environmentFailure { throw DrillError.badInput("--restore could not run: \(reason)") }
        let programFile = EnvironmentFailure.scriptWord(of: options.restore).map { word in
            word.text.hasPrefix("/") ? word.text : (options.workingDirectory.path as NSString).appendingPathComponent(word.text)
        }.flatMap { manager.isReadableFile(atPath: $0) ? $0 : nil }
        let restore = Evidence.Restore(command: options.restore, programFile: programFile,
                                       programSHA256: programFile.flatMap { try? Self.sha256(of: URL(fileURLWithPath: $0)) },
                                       exitCode: result.timedOut ? -1 : result.status, seconds: Date().timeIntervalSince(started),
                                       outputTail: String(result.output.suffix(2000)))

        var checks: [Check] = []
        func add(_ name: String, _ passed: Bool, _ detail: String) { checks.append(Check(name: name, status: passed ? .pass : .fail, detail: detail)) }
        func skip(_ name: String, _ detail: String) { checks.append(Check(name: name, status: .skipped, detail: detail)) }

        add("backup-present", backup.bytes > 0, backup.bytes > 0 ? "\(backup.files) file(s), \(backup.bytes) bytes, SHA-256 \(backup.sha256.prefix(16))…"
            : "the backup is empty (\(backup.files) file(s), 0 bytes)")
        if let maxAge = options.maxAge {
            add("freshness", backup.ageSeconds <= maxAge, "the backup's newest file is from \(backup.modifiedAt), \(Self.duration(backup.ageSeconds)) old"
                + (backup.ageSeconds <= maxAge ? ", within" : ", older than") + " the stated \(Self.duration(maxAge))")
        } else {
            skip("freshness", "no --max-age stated; the backup's newest file is from \(backup.modifiedAt), \(Self.duration(backup.ageSeconds)) old")
        }
        add("restore-succeeded", result.status == 0 && !result.timedOut,
            result.timedOut ? "the restore program did not finish within \(Int(options.timeout)) s" : "the restore program exited \(result.status)")
        let bytes = (try? manager.attributesOfItem(atPath: target.path)[.size] as? NSNumber)?.int64Value
        var restored: Evidence.Restored?
        if let bytes, bytes > 0 {
            add("restored-store", true, "\(name): \(bytes) bytes")
            let report = try StoreVerifier.verify(target)
            let opened = report.unopenable == nil && !report.findings.contains { $0.kind == .unreadable }
            add("opens", opened, opened ? "SQLite opens it as a Core Data store" : "it does not open as a Core Data store: "
                + (report.unopenable ?? report.findings.first { $0.kind == .unreadable }?.message ?? "").replacingOccurrences(of: target.path, with: name))
            if opened {
                func verdict(_ name: String, _ kinds: Set<StoreCheck.Finding.Kind>, _ good: String) {
                    let bad = report.violations.filter { kinds.contains($0.kind) }
                    let more = report.suppressed.filter { key, _ in kinds.contains { $0.rawValue == key } }.values.reduce(0, +)
                    add(name, bad.isEmpty && more == 0, bad.isEmpty && more == 0 ? good
                        : "\(bad.count + more) problem(s): " + bad.prefix(3).map(\.message).joined(separator: "; "))
                }
                verdict("integrity", [.integrity], "PRAGMA integrity_check is ok")
                verdict("bookkeeping", [.bookkeeping, .metadata, .duplicateIdentity, .danglingRelationship, .history],
                        "Z_PRIMARYKEY, Z_ENT, Z_OPT, metadata and relationships are consistent")
                verdict("attachments", [.missingExternalFile], "every one of \(report.externalReferences) external data reference(s) resolves (\(report.externalFiles) file(s))")
                let total = report.objectCounts.values.reduce(0, +)
                add("objects", total >= options.minObjects, "\(total) object(s) in \(report.objectCounts.count) entities"
                    + (total >= options.minObjects ? "" : ", fewer than the \(options.minObjects) a restored store must hold"))
                restored = Evidence.Restored(storeName: name, bytes: bytes, objects: report.objectCounts,
                                             externalReferences: report.externalReferences, externalFiles: report.externalFiles)
                if let live = options.live {
                    let comparison = try StoreComparison.compare(target, against: live)
                    let differences = comparison.violations.count + comparison.suppressed.values.reduce(0, +)
                    add("against-live", differences == 0, differences == 0 ? "the same objects, blobs and links as the live store \(live.path)"
                        : "\(differences) difference(s) from the live store: " + comparison.violations.prefix(3).map(\.message).joined(separator: "; "))
                } else {
                    skip("against-live", "no --live store given")
                }
            } else {
                for name in ["integrity", "bookkeeping", "attachments", "objects", "against-live"] { skip(name, "the restored store does not open") }
            }
        } else {
            add("restored-store", false, bytes == nil ? "the restore left no \(name) in LIFEBOAT_STORE's folder"
                : "the restore left a 0-byte \(name) (an empty dump restores an empty database and exits 0)")
            for name in ["opens", "integrity", "bookkeeping", "attachments", "objects", "against-live"] { skip(name, "no restored store to check") }
        }
        let failed = checks.filter { $0.status == .fail }
        return Evidence(drilledAt: ISO8601DateFormatter().string(from: options.now), lifeboatVersion: Campaign.lifeboatVersion,
                        sqliteVersion: (try? DatabaseQueue().read { try String.fetchOne($0, sql: "SELECT sqlite_version()") }) ?? "unknown",
                        host: Doctor.Probes().kernelRelease(), backup: backup, restore: restore, restored: restored,
                        live: options.live?.standardizedFileURL.path, maxAgeSeconds: options.maxAge, checks: checks,
                        passed: failed.isEmpty, reasons: failed.map { "\($0.name): \($0.detail)" })
    }

    static let archiveSuffixes = [".tar", ".tar.gz", ".tgz", ".tar.zst", ".tar.xz", ".zip", ".gz", ".zst"]

    struct BackupFile {
        var relative: String
        var bytes: Int64
        var modified: Date
        var sha256: String
    }

    /// The backup's regular files, sorted, each with its size, modification time and SHA-256.
    static func files(_ url: URL, folder: Bool) throws -> [BackupFile] {
        let manager = FileManager.default
        func file(_ path: URL, _ relative: String) throws -> BackupFile {
            let attributes = try manager.attributesOfItem(atPath: path.path)
            return BackupFile(relative: relative, bytes: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
                              modified: attributes[.modificationDate] as? Date ?? Date(), sha256: try sha256(of: path))
        }
        guard folder else { return [try file(url, url.lastPathComponent)] }
        var result: [BackupFile] = []
        let walker = manager.enumerator(atPath: url.path)
        while let relative = walker?.nextObject() as? String {
            let path = url.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            result.append(try file(path, relative))
        }
        return result.sorted { $0.relative < $1.relative }
    }

    static func storeName(in files: [String], backup: URL, folder: Bool) -> String {
        if folder, let database = files.first(where: { $0.hasSuffix(".sqlite") && !$0.contains("/") }) ?? files.first(where: { $0.hasSuffix(".sqlite") }) {
            return (database as NSString).lastPathComponent
        }
        if backup.pathExtension == "sqlite" { return backup.lastPathComponent }
        return "Restored.sqlite"
    }

    static func sha256(of url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return Hex.string(hasher.finalize())
    }

    static func hex(_ data: Data) -> String { Hex.string(SHA256.hash(data: data)) }

    static func quoted(_ path: String) -> String { "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// "3 d 4 h", "12 min", "40 s".
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s >= 86400 { return "\(s / 86400) d" + (s % 86400 >= 3600 ? " \(s % 86400 / 3600) h" : "") }
        if s >= 3600 { return "\(s / 3600) h" + (s % 3600 >= 60 ? " \(s % 3600 / 60) min" : "") }
        if s >= 60 { return "\(s / 60) min" }
        return "\(s) s"
    }

    /// The evidence as Markdown, for people: the verdict, the backup, the restore, each check.
    static func markdown(_ evidence: Evidence) -> String {
        func cell(_ text: String) -> String { FindingText.oneLine(text).replacingOccurrences(of: "|", with: "\\|") }
        var lines = ["# Restore drill \(evidence.drilledAt): \(evidence.passed ? "PASSED" : "FAILED")", ""]
        if !evidence.passed { lines += ["Why:", ""] + evidence.reasons.map { "- \(cell($0))" } + [""] }
        lines += ["| | |", "|---|---|",
                  "| backup | `\(cell(evidence.backup.path))` (\(evidence.backup.kind), \(evidence.backup.files) file(s), \(evidence.backup.bytes) bytes) |",
                  "| backup SHA-256 | `\(evidence.backup.sha256)` |",
                  "| backup age | \(duration(evidence.backup.ageSeconds)) (newest file \(evidence.backup.modifiedAt))"
                    + (evidence.maxAgeSeconds.map { "; stated freshness \(duration($0))" } ?? "") + " |",
                  "| restore program | `\(cell(evidence.restore.command))`" + (evidence.restore.programSHA256.map { ", SHA-256 `\($0)`" } ?? "") + " |",
                  "| restore | exit \(evidence.restore.exitCode) in \(String(format: "%.1f", evidence.restore.seconds)) s |",
                  "| Lifeboat | \(evidence.lifeboatVersion) |", "| SQLite | \(evidence.sqliteVersion) |", "| host | \(cell(evidence.host)) |"]
        if let live = evidence.live { lines.append("| live store | `\(cell(live))` |") }
        lines += ["", "| check | result | detail |", "|---|---|---|"]
        lines += evidence.checks.map { "| \($0.name) | \($0.status.rawValue.uppercased()) | \(cell($0.detail)) |" }
        lines += ["", "Schema `\(evidence.schema)` (docs/schemas/lifeboat.restore-drill-1.schema.json); the JSON beside this file is the record."]
        return lines.joined(separator: "\n") + "\n"
    }
}
