import Failures
import Foundation
import Testing

@testable import PTPFacts

/// A caller decides from a PTP error's category (reconnect, hint, stop the batch), never from its words.
struct ErrorCategoryTests {
    @Test func responsesAndLinkFailuresHaveTheirCategory() {
        #expect(PTPError.response(.deviceBusy, operation: .getObject, transaction: 1).failureCategory == .busy)
        #expect(PTPError.response(.operationNotSupported, operation: .getObject, transaction: 1).failureCategory == .notSupported)
        #expect(PTPError.response(.transactionCancelled, operation: .getObject, transaction: 1).failureCategory == .cancelled)
        #expect(PTPError.response(ResponseCode(0x2002), operation: .getObject, transaction: nil).failureCategory == .deviceFault)
        #expect(PTPError.malformed(Malformation("DeviceInfo", .trailingBytes(1))).failureCategory == .deviceFault)
        #expect(PTPError.protocolViolation(ProtocolViolation(.dataBeforeItsStart)).failureCategory == .deviceFault)
        #expect(PTPError.dataTooLarge(limit: 1, announced: 2).failureCategory == .deviceFault)
        #expect(PTPError.timeout(.init(peer: "p", seconds: 1, awaited: .pong)).failureCategory == .timedOut)
        #expect(PTPError.connectionClosed(.hungUp(peer: "p", moment: nil)).failureCategory == .disconnected)
        #expect(PTPError.system(SystemError(.open, path: "/x", errno: EACCES)).failureCategory == .localIO)
        #expect(PTPError.system(SystemError(.receive, on: "127.0.0.1:15740", errno: ECONNRESET)).failureCategory == .disconnected)
        #expect(PTPError.system(SystemError.timeout(.receive, on: "127.0.0.1:15740")).failureCategory == .timedOut)
        #expect(PTPError.dataSourceEnded(sent: 1, announced: 2).failureCategory == .localIO)
    }

    @Test func cancellationHasOneSpelling() {
        #expect(CancellationError().failureCategory == .cancelled)
        #expect(CancellationError().isCancellation)
        #expect(!PTPError.timeout(.init(peer: "p", seconds: 1, awaited: .pong)).isCancellation)
        struct Unknown: Error {}
        #expect(Unknown().failureCategory == .other)
    }

    @Test func systemErrorsKeepTheirErrnoAndSayTheirCategory() {
        #expect(SystemError(.send, errno: EPIPE).failureCategory == .disconnected)
        #expect(SystemError.timeout(.poll).failureCategory == .timedOut)
        #expect(SystemError(.open, path: "/x", errno: ENOENT).failureCategory == .notFound)
        #expect(SystemError(.open, path: "/x", errno: EACCES).failureCategory == .localIO)
    }
}
