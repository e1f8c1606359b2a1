import ChildProcesses
import Foundation

/// The files of a user's program, carried with the scenarios `lifeboat try` writes so that they run from any
/// working folder: its runs, the repro files of its findings and a `--save` folder for CI alike.
///
/// The file a command line runs (`EnvironmentFailure.scriptWord`: `sh my-backup.sh`, `python3 backup.py`,
/// `./backup.sh`) is copied into the program folder beside the scenarios when it lies in or under the working
/// folder, and the command names the copy through `$LIFEBOAT_SCENARIO_DIR` (the scenario file's folder, which a
/// repro pins to an absolute path); a file elsewhere is named by its absolute path, so a missing one is the
/// runner's preflight error ("does not exist or cannot be read"), never a finding. A command whose file the
/// command line does not show (`cd dir && make backup`, a program on PATH) runs as it is, from the folder
/// `lifeboat` runs in. Only the named file is carried: a script that runs other files of the working folder by
/// relative path still needs that folder.
public enum ProgramFiles {
    /// `command` with its script word replaced by where the scenarios find the file, after copying it into
    /// `folder` (keeping its path relative to `workingDirectory` and its permissions); `command` unchanged when
    /// it names no file, an absolute one, or one that is not a readable regular file (the preflight says why).
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

    /// Copies every file of the program folder `from` (the scripts `place` put there; not `recipe.md`) into
    /// `to`, keeping their relative paths and permissions.
    public static func copyAll(from: URL, to: URL) throws {
        let root = from.standardizedFileURL.path + "/"
        guard let walk = FileManager.default.enumerator(at: from, includingPropertiesForKeys: [.isRegularFileKey]) else { return }
        for case let file as URL in walk {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = file.standardizedFileURL.path
            guard path.hasPrefix(root) else { continue }
            let relative = String(path.dropFirst(root.count))
            if relative == "recipe.md" { continue }
            let target = to.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: file, to: target)
        }
    }

    /// A path as one shell word, in single quotes.
    static func quoted(_ path: String) -> String {
        "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
