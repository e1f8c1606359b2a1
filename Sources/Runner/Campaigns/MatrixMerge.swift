import Foundation
import Reporting

/// `lifeboat report merge` of `matrix --shard` (and `try --shard`) folders: one matrix folder whose matrix.json,
/// matrix.md and matrix.html are those one unsharded matrix writes (the run folders and repros copied in, the cells
/// in the table's order, each cell's runs in seed order). Everything is checked before anything is written
/// (`ShardPlan.check`): folders of different matrices, or that miss or repeat a run, are refused.
public enum MatrixMerge {
    public static let file = "matrix.json"

    /// The matrix of one folder, with its plan (a folder of an older build has none: it cannot be merged).
    public static func read(_ folder: URL) throws -> (ToolMatrix.Result, ShardPlan) {
        let result = try JSONDecoder().decode(ToolMatrix.Result.self, from: Data(contentsOf: folder.appendingPathComponent(file)))
        guard let plan = result.plan else {
            throw ShardPlan.MergeError(message: "\(folder.path): its \(file) has no plan (written by an older lifeboat); run it again")
        }
        return (result, plan)
    }

    /// The case keys a matrix holds rows for.
    static func keys(_ result: ToolMatrix.Result) -> [String] {
        result.cells.flatMap { cell in
            cell.notExercised != nil ? [ToolMatrix.key(cell.recipe, cell.situation, seed: nil)]
                : cell.runs.map { ToolMatrix.key(cell.recipe, cell.situation, seed: $0.seed) }
        }
    }

    /// Merges the matrices of `parts` (their folders) into `out`, which must be absent or empty.
    public static func merge(_ parts: [URL], into out: URL) throws -> ToolMatrix.Result {
        let folders = try parts.map { try read($0) }
        let whole = try ShardPlan.check(zip(parts, folders).map { ShardPlan.Part(label: $0.path, plan: $1.1, keys: keys($1.0)) })
        let results = folders.map(\.0)
        let first = results[0]
        // Every shard asked each tool its version; shards run on machines with other versions are not one matrix.
        for (part, result) in zip(parts, results) where result.tools != first.tools {
            throw ShardPlan.MergeError(message: "\(part.path) ran other tool versions than \(parts[0].path): "
                                       + "\(result.tools.map { "\($0.recipe) \($0.version)" }.joined(separator: ", ")) vs \(first.tools.map { "\($0.recipe) \($0.version)" }.joined(separator: ", "))")
        }
        var copies = ShardPlan.Copies()
        var byKey: [String: (cell: ToolMatrix.Cell, run: ToolMatrix.Run?)] = [:]
        for (part, result) in zip(parts, results) {
            for cell in result.cells {
                if cell.notExercised != nil { byKey[ToolMatrix.key(cell.recipe, cell.situation, seed: nil)] = (cell, nil) }
                for run in cell.runs {
                    byKey[ToolMatrix.key(cell.recipe, cell.situation, seed: run.seed)] = (cell, run)
                    if !run.report.isEmpty { try copies.add(run.report, from: part) }
                    if let repro = run.repro { try copies.add(repro, from: part) }
                }
            }
        }
        // The cells in the plan's order (the table's), each cell's runs in its cases' order (the seeds').
        var cells: [ToolMatrix.Cell] = []
        for key in whole.cases {
            guard let (cell, run) = byKey[key] else { continue }
            if cells.last.map({ $0.recipe != cell.recipe || $0.situation != cell.situation }) ?? true {
                var empty = cell
                empty.runs = []
                empty.notExercised = nil
                cells.append(empty)
            }
            if let run { cells[cells.count - 1].runs.append(run) } else { cells[cells.count - 1].notExercised = cell.notExercised }
        }
        var merged = first
        // `try` writes its situations into its own folder (`scenarios/`): the first shard's copy comes along, and
        // the merged page names it there.
        let inside = parts[0].standardizedFileURL.path + "/"
        if first.directory.hasPrefix(inside) {
            let relative = String(first.directory.dropFirst(inside.count))
            try copies.add(relative, from: parts[0])
            merged.directory = out.standardizedFileURL.appendingPathComponent(relative).path
        }
        merged.matrixID = out.lastPathComponent
        merged.startedAt = results.map(\.startedAt).min() ?? first.startedAt
        // Shards run side by side: the matrix took as long as its longest shard.
        merged.seconds = results.map(\.seconds).max() ?? first.seconds
        merged.cells = cells
        var situations: [String] = []
        for cell in cells where !situations.contains(cell.situation) { situations.append(cell.situation) }
        merged.situations = situations.sorted { ToolMatrix.order($0) < ToolMatrix.order($1) }
        merged.situationNotes = results.reduce(into: [:]) { notes, result in notes.merge(result.situationNotes) { a, _ in a } }
        merged.plan = whole
        merged.versionChanges = ToolMatrix.versionChanges(merged)
        // Everything was checked: now the folder is made and written.
        try ShardPlan.prepare(out, parts: parts)
        try copies.write(into: out)
        try ToolMatrixReport.write(merged, to: RunDirectory(existing: out))
        return merged
    }
}
