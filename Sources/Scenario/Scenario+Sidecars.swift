import Foundation
import Yams

extension Scenario {
    /// A continuous program beside the writers (a replicator such as `litestream replicate`, a watcher, a
    /// periodic sync): started and stopped by the runner rather than run as one step, because tools of this kind
    /// back up by following the store while the app writes. A crash kills it with every other process of the run.
    public struct Sidecar: Sendable, Equatable, Codable {
        public enum Start: Sendable, Equatable, Codable {
            /// Right after the writer processes start.
            case withWriters
            case atSeconds(Double)
        }

        public enum Stop: Sendable, Equatable, Codable {
            /// Once every writer has exited, before the steps that wait for the writers.
            case afterWriters
            case atSeconds(Double)
        }

        /// A short name: the log file's and the report's name for it (`sidecar-<name>`).
        public var name: String
        /// A shell command line (`/bin/sh -c`), with the same LIFEBOAT_* variables as `command` strategies.
        public var command: String
        public var start = Start.withWriters
        public var stop = Stop.afterWriters
        /// Seconds between SIGTERM and SIGKILL when the runner stops it: a tool's clean shutdown (a last sync)
        /// is part of what is tested.
        public var grace: Double = 5

        public init(name: String, command: String) {
            self.name = name
            self.command = command
        }
    }
}

extension Scenario.Sidecar.Start: CustomStringConvertible {
    public var description: String {
        switch self {
        case .withWriters: "with_writers"
        case .atSeconds(let seconds): "at_seconds \(seconds)"
        }
    }
}

extension Scenario.Sidecar.Stop: CustomStringConvertible {
    public var description: String {
        switch self {
        case .afterWriters: "after_writers"
        case .atSeconds(let seconds): "at_seconds \(seconds)"
        }
    }
}

extension ScenarioParser {
    /// `sidecars: [{name, command, start: with_writers | at_seconds N, stop: after_writers | at_seconds N, grace: S}]`.
    static func sidecars(_ nodes: [Node], file: String) throws -> [Scenario.Sidecar] {
        var seen: Set<String> = []
        return try nodes.enumerated().map { index, node in
            var r = try NodeReader(node, file: file, context: "sidecars[\(index)]")
            guard let name = try r.string("name"), !name.isEmpty else { throw r.error(node, "sidecars[\(index)] needs a `name:`") }
            guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw r.error(r.node("name"), "sidecars[\(index)].name may hold letters, digits, - and _ only, not '\(name)'")
            }
            guard seen.insert(name).inserted else { throw r.error(r.node("name"), "two sidecars are named '\(name)'") }
            guard let command = try r.string("command"), !command.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw r.error(node, "sidecars[\(index)] needs a `command:`")
            }
            var sidecar = Scenario.Sidecar(name: name, command: command)
            if let text = try r.string("start") {
                guard let seconds = moment(text, word: "with_writers") else {
                    throw r.error(r.node("start"), "sidecars[\(index)].start must be `with_writers` or `at_seconds N`, not '\(text)'")
                }
                sidecar.start = seconds.map { .atSeconds($0) } ?? .withWriters
            }
            if let text = try r.string("stop") {
                guard let seconds = moment(text, word: "after_writers") else {
                    throw r.error(r.node("stop"), "sidecars[\(index)].stop must be `after_writers` or `at_seconds N`, not '\(text)'")
                }
                sidecar.stop = seconds.map { .atSeconds($0) } ?? .afterWriters
            }
            if case .atSeconds(let begin) = sidecar.start, case .atSeconds(let end) = sidecar.stop, end <= begin {
                throw r.error(r.node("stop") ?? node, "sidecars[\(index)] stops at \(end) s, not after it starts at \(begin) s")
            }
            if let grace = try r.double("grace", range: 0...600) { sidecar.grace = grace }
            try r.finish()
            return sidecar
        }
    }

    /// `word` gives `.some(nil)`; `at_seconds N` gives N; anything else nil.
    private static func moment(_ text: String, word: String) -> Double?? {
        let words = text.split(separator: " ").map(String.init)
        if words == [word] { return .some(nil) }
        if words.count == 2, words[0] == "at_seconds", let seconds = Double(words[1]), seconds.isFinite, (0...86_400).contains(seconds) {
            return .some(seconds)
        }
        return nil
    }
}

extension ScenarioYAML {
    /// The `sidecars:` lines of a rendered scenario (none when it has no sidecars).
    static func sidecarLines(_ sidecars: [Scenario.Sidecar]) -> [String] {
        guard !sidecars.isEmpty else { return [] }
        var out = ["sidecars:"]
        for sidecar in sidecars {
            out.append("  - name: \(quote(sidecar.name))")
            out.append("    command: \(quote(sidecar.command))")
            out.append("    start: \(sidecar.start)")
            out.append("    stop: \(sidecar.stop)")
            out.append("    grace: \(sidecar.grace)")
        }
        return out
    }
}
