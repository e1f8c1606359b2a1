import FaultVocabulary
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The typed errno name (issue 41): every name of the one table is read once, by the one text parser and the
/// control protocol, into `Errno`, and written back in exactly the text and JSON it was read from.
@Suite struct ErrnoTests {
    @Test func everyNameRoundTripsThroughTextAndJSON() throws {
        #expect(Errno.allCases.count == 36 && ErrnoNames.names == Errno.allCases.map(\.rawValue).sorted())
        for errno in Errno.allCases {
            let text = "errno \(errno.rawValue)"
            let action = try FaultAction(text: text)
            #expect(action == .errno(errno), "\(text)")
            #expect(action.description == text)
            let json = try JSONEncoder().encode(FaultActionJSON(action))
            #expect(String(decoding: json, as: UTF8.self) == #"{"kind":"errno","errno":"\#(errno.rawValue)"}"#
                    || String(decoding: json, as: UTF8.self) == #"{"errno":"\#(errno.rawValue)","kind":"errno"}"#)
            #expect(try JSONDecoder().decode(FaultActionJSON.self, from: json).action == action)
            #expect(try JSONDecoder().decode(FaultAction.self, from: JSONEncoder().encode(action)) == action, "the text Codable form")
        }
    }

    @Test func valuesAreTheCConstants() {
        #expect(Errno.EIO.value == EIO && Errno.ENOSPC.value == ENOSPC && Errno.EDQUOT.value == EDQUOT)
        #expect(Errno.EROFS.value == EROFS && Errno.EINTR.value == EINTR && Errno.EOVERFLOW.value == EOVERFLOW)
        #expect(ErrnoNames.name(of: EIO) == "EIO")
        #expect(ErrnoNames.name(of: EAGAIN) == "EAGAIN", "the first name alphabetically of EAGAIN and EWOULDBLOCK")
        #expect(ErrnoNames.name(of: 4095) == "E4095")
    }

    @Test func anUnknownNameIsRefusedWithTheSameMessage() throws {
        let names = ErrnoNames.names.joined(separator: ", ")
        for bad in ["EWHATEVER", "eio"] {
            do {
                let parsed = try FaultAction(text: "errno \(bad)")
                Issue.record("accepted errno \(bad) as \(parsed)")
            } catch {
                #expect(error.detail == "\(bad) is not an errno name FaultFS knows (\(names))")
                #expect(error.description == "must be \(FaultAction.Kind.syntaxList()), not 'errno \(bad)'; \(bad) is not an errno name FaultFS knows (\(names))")
            }
        }
        let json = Data(#"{"kind":"errno","errno":"EWHATEVER"}"#.utf8)
        let error = #expect(throws: DecodingError.self) { try JSONDecoder().decode(FaultActionJSON.self, from: json) }
        if case .dataCorrupted(let context)? = error {
            #expect(context.debugDescription == "unknown errno name EWHATEVER (\(names))")
        } else {
            Issue.record("not a corrupted value: \(String(describing: error))")
        }
        #expect(try JSONDecoder().decode(FaultActionJSON.self, from: Data(#"{"kind":"errno","errno":"eio"}"#.utf8)).action == .errno(.EIO),
                "the protocol takes a name in any case, as it always has")
    }
}
