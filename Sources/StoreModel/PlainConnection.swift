import Foundation
import GRDB

/// A connection that changes nothing about the file (no journal mode or synchronous pragma): what replace, the
/// backup API and the checker open on stores they copy from or inspect.
public enum PlainConnection {
    public static func open(_ database: URL, readOnly: Bool = false, busyTimeout: Double = 30) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.foreignKeysEnabled = false
        configuration.busyMode = .timeout(busyTimeout)
        return try DatabaseQueue(path: database.path, configuration: configuration)
    }
}
