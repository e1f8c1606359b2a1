import Foundation

/// The standard situations a backup or restore program is judged in: `Scenarios/tools/_situations/*.yaml` (on
/// `Scenarios/_defaults.yaml`), one definition for `lifeboat matrix` (which reads the files, and runs every
/// situation for every recipe) and `lifeboat try` (which writes this build's embedded copy of them, generated
/// by scripts/embed-situations.py, so the binary works from any directory).
public enum Situations {
    /// Situations that need something this build does not have yet, each with why. A situation file of that
    /// name in `_situations/` takes the slot: the matrix and `try` then run it like any other.
    /// - `cloudkit-mirrored`: a store mirrored by NSPersistentCloudKitContainer (its history-tracking and mirroring
    ///   tables), which needs the CloudKit-mirroring store model; when that model lands, its situation file goes in
    ///   `Scenarios/tools/_situations/cloudkit-mirrored.yaml` and `scripts/embed-situations.py` embeds it.
    public static let pending: [(name: String, reason: String)] = [
        ("cloudkit-mirrored", "not a situation of try or the matrix yet: a backup of a CloudKit-mirrored store is judged by scenario files with sync steps (docs/cloudkit.md)"),
    ]

    /// Writes the embedded defaults and situations under `root` (`root/_defaults.yaml`,
    /// `root/tools/_situations/*.yaml`) and returns `root/tools`, a directory of recipes to add a recipe to.
    public static func materialize(at root: URL) throws -> URL {
        for (path, text) in embedded {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((text + "\n").utf8).write(to: file)
        }
        return root.appendingPathComponent("tools")
    }

    /// The embedded copy's files (path relative to Scenarios/, text), for the test that keeps it in step.
    public static var embeddedFiles: [(path: String, text: String)] { embedded.map { ($0.path, $0.text + "\n") } }
}
