import ArgumentParser
import Foundation

/// A byte size written as 200MB, 64KiB, 1.5G or a plain number of bytes.
struct ByteSize: ExpressibleByArgument, Sendable, CustomStringConvertible {
    var bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        guard let value = Self.parse(argument) else { return nil }
        bytes = value
    }

    static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Double)] = [("KIB", 1024), ("MIB", 1_048_576), ("GIB", 1_073_741_824), ("KB", 1000), ("MB", 1e6), ("GB", 1e9),
                                         ("K", 1024), ("M", 1_048_576), ("G", 1_073_741_824), ("B", 1)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            guard let number = Double(trimmed.dropLast(suffix.count)), number >= 0 else { return nil }
            return Int(number * factor)
        }
        guard let number = Int(trimmed), number >= 0 else { return nil }
        return number
    }

    var description: String { "\(bytes) bytes" }
    static var defaultCompletionKind: CompletionKind { .default }
}

extension URL {
    /// A file URL from a command-line path, relative to the working directory.
    init(cliPath: String) {
        self = URL(fileURLWithPath: cliPath).standardizedFileURL
    }
}
