import ChildProcesses
import Foundation

/// The file a user's command line runs (`EnvironmentFailure.scriptWord`: `sh my-backup.sh`, `python3
/// backup.py`, `./backup.sh`), named so that what `lifeboat try` and every run leave behind runs from any working
/// folder:
///
/// - `pinned`: by its absolute path, for `try`'s runs and every repro (`RunReports.replayable`). The user's own
///   file runs, with its `$0`, `__file__` and the files beside it; a file that is gone is the runner's preflight
///   error ("does not exist or cannot be read"), so a replay says "not run", never "did not reproduce".
/// - `place`: copied into a folder (a `--save` folder for CI) when it lies in or under the working folder, and
///   named through `$LIFEBOAT_SCENARIO_DIR`, so the folder runs wherever it is copied; one elsewhere by its
///   absolute path. Only the named file is carried: a script that uses files beside it (a python import, `.
///   lib.sh`) needs them copied too.
///
/// A command whose file the command line does not show (`cd dir && make backup`, a program on PATH) runs as it
/// is, from the folder `lifeboat` runs in.
public enum ProgramFiles {
    /// `command` with its script word replaced by where the scenarios in `folder` find the file, after copying it
    /// there (keeping its path relative to `workingDirectory` and its permissions); `command` unchanged when it
    /// names no file, an absolute one, or one that is not a readable regular file (the preflight says why).
    public static func place(_ command: String, in folder: URL, from workingDirectory: URL) throws -> String {
        guard let word = EnvironmentFailure.scriptWord(of: command), !word.text.hasPrefix("/") else { return command }
        let base = workingDirectory.standardizedFileURL.path
        let source = URL(fileURLWithPath: (base as NSString).appendingPathComponent(word.text)).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: source.path) else { return command }
        var replacement = quoted(source.path)
        let prefix = base.hasSuffix("/") ? base : base + "/"
        if source.path.hasPrefix(prefix) {
            let relative = String(source.path.dropFirst(prefix.count))
            let copy = folder.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: source, to: copy)
            if !relative.contains(where: { "\"$`\\".contains($0) }) { replacement = "\"$LIFEBOAT_SCENARIO_DIR/\(relative)\"" }
            else { replacement = quoted(copy.path) }
        }
        var rewritten = command
        rewritten.replaceSubrange(word.range, with: replacement)
        return rewritten
    }

    /// `command` as a repro file keeps it (`RunReports.replayable`): `$LIFEBOAT_SCENARIO_DIR` replaced by the
    /// scenario's folder, and a file the command names by a relative path (`sh my-backup.sh`, which the shell
    /// finds from the folder `lifeboat` ran in) named by its absolute path, so the repro replays from any folder.
    public static func pinned(_ command: String, scenarioDirectory: String,
                              workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        var pinned = command.replacingOccurrences(of: "${LIFEBOAT_SCENARIO_DIR}", with: scenarioDirectory)
            .replacingOccurrences(of: "$LIFEBOAT_SCENARIO_DIR", with: scenarioDirectory)
        if let word = EnvironmentFailure.scriptWord(of: pinned), !word.text.hasPrefix("/") {
            pinned.replaceSubrange(word.range, with: quoted(URL(fileURLWithPath: (workingDirectory as NSString)
                .appendingPathComponent(word.text)).standardizedFileURL.path))
        }
        return pinned
    }

    /// A path as one shell word, in single quotes.
    static func quoted(_ path: String) -> String {
        "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
