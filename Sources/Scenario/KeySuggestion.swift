import Foundation
import Synchronization

/// "Did you mean": the known key closest to a misspelt one, by edit distance (Levenshtein: insertions,
/// deletions and substitutions of one character), when it is close enough to be a typo (at most 2 edits, or a
/// third of the key's length for long keys) rather than a different word.
public enum KeySuggestion {
    public static func closest(to key: String, among candidates: some Sequence<String>) -> String? {
        let limit = max(2, key.count / 3)
        var best: (key: String, distance: Int)?
        for candidate in Set(candidates).sorted() where candidate != key {
            let distance = editDistance(key, candidate)
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.key
    }

    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// The unknown keys of one parse, gathered from every mapping so a file with three typos gets three errors in
/// one run, not one per run. The parse's entry points install it (a task-local, so the many readers a parse
/// creates need no extra argument); a reader outside one throws its mapping's unknown keys at once instead.
final class UnknownKeys: Sendable {
    @TaskLocal static var current: UnknownKeys?

    private let found = Mutex<[ScenarioError]>([])

    func add(_ errors: [ScenarioError]) { found.withLock { $0 += errors } }

    /// Runs a parse with unknown keys gathered: they are thrown together at the end, with any other error the
    /// parse stopped on, in file order. A parse inside another (`extends:`) shares the outer one's list.
    static func gathering<T>(_ parse: () throws -> T) throws -> T {
        if current != nil { return try parse() }
        let log = UnknownKeys()
        let outcome = Result { try $current.withValue(log) { try parse() } }
        var errors = log.found.withLock { $0 }
        switch outcome {
        case .success(let value):
            guard !errors.isEmpty else { return value }
        case .failure(let error as ScenarioError):
            errors.append(error)
        case .failure(let error):
            throw error
        }
        errors.sort { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
        var first = errors.removeFirst()
        first.others = errors
        throw first
    }
}
