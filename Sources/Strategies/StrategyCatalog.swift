import Foundation

/// Every strategy by name: what `lifeboat strategies` lists and scenario files select.
public enum StrategyCatalog {
    public static let backups: [any BackupStrategy] = [
        FileCopyBackup(scope: .database), FileCopyBackup(scope: .companions), FileCopyBackup(scope: .everything),
        MigrateBackup(), ReplaceBackup(), BackupAPIBackup(), VacuumIntoBackup(), SQLite3CLIBackup(), CommandBackup(),
    ]
    public static let restores: [any RestoreStrategy] = [
        DestroyThenMigrateRestore(), ReplaceThenReaddRestore(), FileCopyOverRestore(), CommandRestore(),
    ]
    public static let relocations: [any RelocationStrategy] = [
        RelocateMigrate(), RelocateReplace(), RelocateReplaceOnly(), RelocateAppGroup(), RelocateAppGroup(cloudKitDuringMove: true),
    ]

    public static func backup(named name: String) throws -> any BackupStrategy {
        guard let strategy = backups.first(where: { $0.name == name }) else {
            throw UnknownStrategy(kind: "backup", name: name, known: backups.map(\.name))
        }
        return strategy
    }

    public static func restore(named name: String) throws -> any RestoreStrategy {
        guard let strategy = restores.first(where: { $0.name == name }) else {
            throw UnknownStrategy(kind: "restore", name: name, known: restores.map(\.name))
        }
        return strategy
    }

    public static func relocation(named name: String) throws -> any RelocationStrategy {
        guard let strategy = relocations.first(where: { $0.name == name }) else {
            throw UnknownStrategy(kind: "relocation", name: name, known: relocations.map(\.name))
        }
        return strategy
    }
}

public struct UnknownStrategy: Error, CustomStringConvertible, Equatable {
    public var kind: String
    public var name: String
    public var known: [String]
    public var description: String { "unknown \(kind) strategy '\(name)'; known: \(known.joined(separator: ", "))" }
}
