import Checks
import Crypto
import Foundation
import StoreModel

/// One finding as CI shows it, where CI users already look: a SARIF result (`SARIFReport`) and a GitHub
/// annotation or step-summary row (`GitHubActionsReport`) are pure functions of a list of these. The words are the
/// `Finding`'s (consequence, evidence, cause, fix), so a code-scanning alert says what the terminal said; the rest
/// is where it showed, which program it blames, its repro and the op log's causal events.
public struct CIFinding: Sendable, Equatable, Codable {
    public var finding: Finding
    /// What identifies where it showed, without seeds or counts: a `try` situation ("live-wal", or several joined
    /// by ","), a scenario's name, a matrix recipe and situation ("rsync live-wal"), a deep search's walk and call.
    public var situation: String
    /// Where it showed, as printed: "live-wal (3/3 seeds), crash-after-backup (1/3 seeds)".
    public var place: String
    /// The program under test as the user names it: the command line as typed (`sh my-backup.sh`, never the
    /// absolute path a run pins), or a matrix recipe's row.
    public var program: String
    /// The file the program's command line runs, relative to the working folder where it lies under it; nil when
    /// the command names none (`rsync -a ...`, a program on PATH).
    public var programFile: String?
    /// The scenario file of a scenario run, relative to the working folder where it lies under it, and the line of
    /// the step that ran the program, where it is in that file (nil: in a file it extends, or unknown).
    public var scenarioFile: String?
    public var scenarioLine: Int?
    /// The command that replays it (`lifeboat replay reports/.../repro.yaml`).
    public var repro: String?
    /// The op log's causal events behind it: the full cause, one clause per operation the crash dropped (with the
    /// fsync that never came), then the crash and what it did to the store. Empty when the finding has no cause
    /// from the op log (a copy that missed the -wal is wrong without any crash).
    public var events: [String]
    /// Stable across runs of the same seed (`fingerprint(invariant:situation:program:cause:)`).
    public var fingerprint: String

    public init(finding: Finding, situation: String, place: String? = nil, program: String, programFile: String? = nil,
                scenarioFile: String? = nil, scenarioLine: Int? = nil, repro: String? = nil, cause: String? = nil) {
        self.finding = finding
        self.situation = situation
        self.place = place ?? situation
        self.program = program
        self.programFile = programFile
        self.scenarioFile = scenarioFile
        self.scenarioLine = scenarioLine
        self.repro = repro
        let cause = cause ?? finding.cause
        events = cause.map(Self.events(of:)) ?? []
        fingerprint = Self.fingerprint(invariant: finding.invariant, situation: situation, program: program, cause: cause)
    }

    /// The clauses of a cause, each on one line, scratch paths made run-relative: one causal event each.
    public static func events(of cause: String) -> [String] {
        FindingText.oneLine(cause).components(separatedBy: "; ").map { FindingText.relativePaths($0) }.filter { !$0.isEmpty }
    }

    /// SHA-256 (hex) of the invariant, the situation, the program and the cause with every number replaced by `#`:
    /// what makes it the same finding. A run id, a time, a byte count or a scratch folder is not part of it (the
    /// same seed's next run commits a few transactions more before its backup, at other times, in another scratch
    /// folder), so the same finding in the next run of the same seed is the same code-scanning alert, and a
    /// finding with another cause (another operation dropped, another file) is another alert.
    public static func fingerprint(invariant: String, situation: String, program: String, cause: String?) -> String {
        let text = ["lifeboat.finding/1", invariant, situation, program, stable(cause ?? "")].joined(separator: "\n")
        return Hex.string(SHA256.hash(data: Data(text.utf8)))
    }

    /// `text` with scratch paths made run-relative and every run of digits (times, sizes, pids, run ids) as `#`.
    public static func stable(_ text: String) -> String {
        let flat = FindingText.relativePaths(FindingText.oneLine(text))
        var out = ""
        var inNumber = false
        for character in flat {
            if character.isASCII, character.isNumber {
                if !inNumber { out.append("#") }
                inNumber = true
            } else {
                out.append(character)
                inNumber = false
            }
        }
        return out
    }

    /// Findings worst first, as every report lists them (`Verdict.ranked`): the program's before the app's own,
    /// then by severity; otherwise in the given order.
    public static func ranked(_ findings: [CIFinding]) -> [CIFinding] {
        findings.enumerated().sorted { a, b in
            let ka = (a.element.finding.appsOwn ? 1 : 0, a.element.finding.severity.rawValue)
            let kb = (b.element.finding.appsOwn ? 1 : 0, b.element.finding.severity.rawValue)
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    /// The 1-based line of the first schedule step of `action` (`- backup: command`) in a scenario file's text, or
    /// of its first `command:`; nil when the file has neither (its steps come from a file it extends).
    public static func stepLine(_ action: String, in text: String) -> Int? {
        let lines = text.components(separatedBy: "\n")
        func first(_ match: (String) -> Bool) -> Int? { lines.firstIndex(where: match).map { $0 + 1 } }
        return first { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("- \(action):") || trimmed.hasPrefix("- {\(action):")
        } ?? first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("command:") }
    }
}
