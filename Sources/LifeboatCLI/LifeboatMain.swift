import ArgumentParser
import Foundation

/// The entry point `main.swift` calls: parses, runs, and maps every outcome to the harness's exit codes, so a
/// usage error exits 2 (not ArgumentParser's 64) and no error escapes as a crash.
public enum LifeboatMain {
    public static func run(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Int32 {
        do {
            var command = try Lifeboat.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return report(error)
        }
    }

    /// Prints what went wrong and returns the exit code for it.
    static func report(_ error: any Error) -> Int32 {
        if let exit = error as? ExitCode { return exit.rawValue }
        if let failure = error as? CLIFailure {
            FileHandle.standardError.write(Data("lifeboat: \(failure.message)\n".utf8))
            return failure.code
        }
        let code = Lifeboat.exitCode(for: error)
        if code == .success {
            print(Lifeboat.fullMessage(for: error))
            return 0
        }
        FileHandle.standardError.write(Data("\(Lifeboat.fullMessage(for: error))\n".utf8))
        if error is CleanExit { return 0 }
        // Usage and validation errors, and anything the libraries threw about the input: exit 2.
        return code == .validationFailure || code == .failure ? 2 : code.rawValue
    }
}

/// An error with its exit code and a message meant for a person.
public struct CLIFailure: Error, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var description: String { message }

    /// Bad input or environment: exit 2.
    public static func badInput(_ message: String) -> CLIFailure { CLIFailure(code: 2, message: message) }
    /// A check found a violation: exit 1.
    public static func violation(_ message: String) -> CLIFailure { CLIFailure(code: 1, message: message) }
}
