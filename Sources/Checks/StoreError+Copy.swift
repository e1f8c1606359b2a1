import StoreModel

extension StoreError {
    /// The same error with the path of the private copy a check read replaced by the store's own path, so a
    /// finding names the backup, not a scratch file.
    func naming(_ original: String, for copy: String) -> StoreError {
        func fix(_ text: String) -> String { text.replacingOccurrences(of: copy, with: original) }
        switch self {
        case .incompatibleModel(let store, let differences): return .incompatibleModel(store: fix(store), differences: differences)
        case .notACoreDataStore(let path, let reason): return .notACoreDataStore(fix(path), reason: fix(reason))
        case .unopenable(let path, let reason): return .unopenable(fix(path), reason: fix(reason))
        case .unreadableBackup(let path, let reason): return .unreadableBackup(fix(path), reason: fix(reason))
        case .missingStore(let path): return .missingStore(fix(path))
        case .sqlite(let message): return .sqlite(fix(message))
        case .io(let message): return .io(fix(message))
        default: return self
        }
    }
}
