import PTP
import Testing

/// Expects `body` to throw the device's `code` in answer to `operation`, in whichever transaction: tests switch
/// on the error's facts, never on its words.
public func expectResponse<R>(
    _ code: ResponseCode, to operation: OperationCode, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> R
) {
    let error = #expect(throws: PTPError.self, sourceLocation: sourceLocation) { _ = try body() }
    guard let error else { return }
    #expect(error.isResponse(code, to: operation), "\(error)", sourceLocation: sourceLocation)
}
