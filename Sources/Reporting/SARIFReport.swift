import Checks
import Foundation

/// `--sarif FILE`: the findings of `try`, `try --deep`, `run` (and its campaigns) and `matrix` as SARIF 2.1.0, the
/// format GitHub code scanning reads. A pure function of the findings (`CIFinding`), so every command writes the
/// same shape:
///
/// - one run, one result per finding, worst first; the invariant is the rule, with its consequence, fix and docs
///   link in the rule's help (from `InvariantRegistry`);
/// - the location is the program's file (line 1: the finding is about the program as a whole), then the scenario
///   file at the line of the step that ran it, where known;
/// - the op log's causal events are the result's code flow, at most `codeFlowCap` of them, the cap stated in the
///   flow's message and in the run's properties (GitHub shows at most 1,000 locations of a flow);
/// - `partialFingerprints["lifeboatFinding/v1"]` is `CIFinding.fingerprint`, so the same finding in the next run of
///   the same seed is the same alert.
///
/// docs/schemas/sarif-schema-2.1.0.json is the OASIS schema; scripts/validate-ci.sh checks a rendered file against
/// it, and the tests check what `try --sarif` writes.
public enum SARIFReport {
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    /// Causal events shown per result; the rest are counted in the flow's message.
    public static let codeFlowCap = 50
    public static let fingerprintKey = "lifeboatFinding/v1"
    /// Where the rules' docs are, relative to a clone of Lifeboat.
    public static let invariantsDoc = "docs/invariants.md"

    /// What ran: the command line as typed, the folder it ran in (the base of relative locations), Lifeboat's
    /// version, and the category that keeps uploads of different commands apart ("lifeboat-try").
    public struct Invocation: Sendable {
        public var command: String
        public var workingDirectory: String?
        public var version: String
        public var category: String
        public init(command: String, workingDirectory: String?, version: String, category: String) {
            self.command = command
            self.workingDirectory = workingDirectory
            self.version = version
            self.category = category
        }
    }

    public static func render(_ findings: [CIFinding], invocation: Invocation) -> String {
        let ranked = CIFinding.ranked(findings)
        var ruleNames: [String] = []
        for item in ranked where !ruleNames.contains(item.finding.invariant) { ruleNames.append(item.finding.invariant) }
        let rules = ruleNames.map { name in rule(name, example: ranked.first { $0.finding.invariant == name }?.finding) }
        let results = ranked.map { item in result(item, ruleIndex: ruleNames.firstIndex(of: item.finding.invariant) ?? 0) }
        var bases: [String: Log.ArtifactLocation]?
        if let directory = invocation.workingDirectory {
            bases = [baseID: Log.ArtifactLocation(uri: fileURI(directory.hasSuffix("/") ? directory : directory + "/"), uriBaseId: nil)]
        }
        let run = Log.Run(
            tool: Log.Tool(driver: Log.Driver(name: "Lifeboat", version: invocation.version, semanticVersion: invocation.version,
                                              rules: rules)),
            automationDetails: Log.AutomationDetails(id: invocation.category + "/"),
            invocations: [Log.Invocation(commandLine: invocation.command, executionSuccessful: true)],
            originalUriBaseIds: bases,
            results: results,
            properties: ["codeFlowCap": .int(codeFlowCap), "findings": .int(ranked.count)])
        let log = Log(schema: schemaURI, version: "2.1.0", runs: [run])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(log)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }

    static let baseID = "SRCROOT"

    /// The SARIF level of a finding: a damaged copy or a loss (at once or on a power cut) is an error, a loud
    /// failure a warning, a cost or the app's own behaviour a note.
    public static func level(_ finding: Finding) -> String {
        if finding.appsOwn { return "note" }
        switch finding.severity {
        case .damaged, .silentLoss, .lostOnPowerCut: return "error"
        case .loudFailure: return "warning"
        case .cost: return "note"
        }
    }

    static func rule(_ name: String, example: Finding?) -> Log.Rule {
        let invariant = InvariantRegistry.invariant(named: name)
        let consequence = invariant?.consequence ?? example?.consequence ?? name
        let fix = invariant?.fix ?? example?.fix
        let severity = invariant?.severity ?? example?.severity ?? .cost
        let docs = "\(invariantsDoc) (the `\(name)` row) in Lifeboat's repository"
        let text = "\(consequence).\(fix.map { " Fix: \($0)." } ?? "") Docs: \(docs)."
        let markdown = "**What is lost:** \(consequence).\n\n" + (fix.map { "**Fix:** \($0).\n\n" } ?? "")
            + "**Severity:** \(severity.title).\n\n**Docs:** [\(invariantsDoc)](\(invariantsDoc)#invariants), the `\(name)` row."
        return Log.Rule(id: name, name: ruleName(name), shortDescription: Log.Message(text: consequence),
                        fullDescription: Log.Message(text: consequence), help: Log.MultiformatMessage(text: text, markdown: markdown),
                        defaultConfiguration: Log.Configuration(level: example.map(level) ?? "error"),
                        properties: ["severity": .string(severity.title), "owner": .string(invariant?.owner.rawValue ?? "program"),
                                     "tags": .strings(["lifeboat", "backup", severity.title])])
    }

    /// "wal-content-carried" -> "WalContentCarried" (SARIF's rule names are identifiers).
    static func ruleName(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func result(_ item: CIFinding, ruleIndex: Int) -> Log.Result {
        let finding = item.finding
        var message = "\(finding.invariant): \(finding.consequence), in \(item.place) of \(item.program)."
        if let evidence = finding.evidence { message += " e.g. \(evidence)." }
        if let cause = finding.cause { message += " Cause: \(cause)." }
        if let fix = finding.fix { message += " Fix: \(fix)." }
        if let repro = item.repro { message += " Repro: \(repro)" }
        var locations: [Log.Location] = []
        if let file = item.programFile {
            locations.append(Log.Location(physicalLocation: physical(file, line: 1), message: Log.Message(text: "the program: \(item.program)")))
        }
        if let file = item.scenarioFile {
            locations.append(Log.Location(physicalLocation: physical(file, line: item.scenarioLine),
                                          message: Log.Message(text: "the scenario it ran in")))
        }
        if locations.isEmpty {
            locations.append(Log.Location(message: Log.Message(text: "the program: \(item.program)"),
                                          logicalLocations: [Log.LogicalLocation(name: item.program, kind: "module")]))
        }
        var flows: [Log.CodeFlow]?
        if !item.events.isEmpty {
            let shown = item.events.prefix(codeFlowCap)
            let where_ = locations.first?.physicalLocation
            flows = [Log.CodeFlow(
                message: Log.Message(text: "the op log's causal events: \(shown.count) of \(item.events.count) shown (at most \(codeFlowCap))"),
                threadFlows: [Log.ThreadFlow(locations: shown.enumerated().map { index, event in
                    Log.ThreadFlowLocation(location: Log.Location(physicalLocation: where_, message: Log.Message(text: event)),
                                           executionOrder: index + 1)
                })])]
        }
        var properties: [String: Log.Property] = ["severity": .string(finding.severity.title), "situation": .string(item.situation),
                                                  "place": .string(item.place), "program": .string(item.program)]
        if let repro = item.repro { properties["repro"] = .string(repro) }
        if finding.appsOwn { properties["appsOwn"] = .bool(true) }
        return Log.Result(ruleId: finding.invariant, ruleIndex: ruleIndex, level: level(finding), message: Log.Message(text: message),
                          locations: locations, partialFingerprints: [fingerprintKey: item.fingerprint], codeFlows: flows,
                          properties: properties)
    }

    static func physical(_ path: String, line: Int?) -> Log.PhysicalLocation {
        let artifact = path.hasPrefix("/") ? Log.ArtifactLocation(uri: fileURI(path), uriBaseId: nil)
            : Log.ArtifactLocation(uri: encoded(path), uriBaseId: baseID)
        return Log.PhysicalLocation(artifactLocation: artifact, region: line.map { Log.Region(startLine: max(1, $0)) })
    }

    static func encoded(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    static func fileURI(_ path: String) -> String { "file://" + encoded(path) }
}

/// The part of SARIF 2.1.0's object model Lifeboat writes (names as the schema spells them; nil is left out).
extension SARIFReport {
    struct Log: Encodable {
        var schema: String
        var version: String
        var runs: [Run]
        enum CodingKeys: String, CodingKey { case schema = "$schema", version, runs }

        struct Run: Encodable {
            var tool: Tool
            var automationDetails: AutomationDetails
            var invocations: [Invocation]
            var originalUriBaseIds: [String: ArtifactLocation]?
            var results: [Result]
            var properties: [String: Property]
        }
        struct Tool: Encodable { var driver: Driver }
        struct Driver: Encodable {
            var name: String
            var version: String
            var semanticVersion: String
            var rules: [Rule]
        }
        struct AutomationDetails: Encodable { var id: String }
        struct Invocation: Encodable {
            var commandLine: String
            var executionSuccessful: Bool
        }
        struct Rule: Encodable {
            var id: String
            var name: String
            var shortDescription: Message
            var fullDescription: Message
            var help: MultiformatMessage
            var defaultConfiguration: Configuration
            var properties: [String: Property]
        }
        struct Configuration: Encodable { var level: String }
        struct Message: Encodable { var text: String }
        struct MultiformatMessage: Encodable {
            var text: String
            var markdown: String
        }
        struct Result: Encodable {
            var ruleId: String
            var ruleIndex: Int
            var level: String
            var message: Message
            var locations: [Location]
            var partialFingerprints: [String: String]
            var codeFlows: [CodeFlow]?
            var properties: [String: Property]
        }
        struct Location: Encodable {
            var physicalLocation: PhysicalLocation?
            var message: Message?
            var logicalLocations: [LogicalLocation]?
        }
        struct LogicalLocation: Encodable {
            var name: String
            var kind: String
        }
        struct PhysicalLocation: Encodable {
            var artifactLocation: ArtifactLocation
            var region: Region?
        }
        struct ArtifactLocation: Encodable {
            var uri: String
            var uriBaseId: String?
        }
        struct Region: Encodable { var startLine: Int }
        struct CodeFlow: Encodable {
            var message: Message
            var threadFlows: [ThreadFlow]
        }
        struct ThreadFlow: Encodable { var locations: [ThreadFlowLocation] }
        struct ThreadFlowLocation: Encodable {
            var location: Location
            var executionOrder: Int
        }
        /// A property bag's value.
        enum Property: Encodable {
            case string(String), int(Int), bool(Bool), strings([String])
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case .string(let value): try container.encode(value)
                case .int(let value): try container.encode(value)
                case .bool(let value): try container.encode(value)
                case .strings(let value): try container.encode(value)
                }
            }
        }
    }
}
