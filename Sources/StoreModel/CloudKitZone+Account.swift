import Foundation

extension CloudKitZone {
    /// Signs the account in (`available`) or out (`unavailable`) while the zone keeps its records: the scenario
    /// entries `account: sign-in|sign-out`. Signed out, a sync's setup never completes (`CloudKitMirror.setUp`).
    public func setAccount(_ account: Account) throws {
        try locked {
            var state = try readState()
            state.account = account
            try writeState(state)
        }
    }
}
