import Foundation
import POSIX
import Testing
@testable import Playback

/// `MPVConnection.close` and its reader thread: the socket is released only once the reader has let go.
@Suite struct MPVConnectionTests {
    /// The race that was: `close` waited 2 s at most for the reader, then closed the descriptor the reader
    /// could still be about to read (by then, perhaps, another file's). Here the reader is held in an event
    /// handler for longer than that; `close` must still return only once the reader has finished.
    @Test func closeReturnsOnlyOnceTheReaderThreadHasFinished() throws {
        let (ours, mpv) = try Socket.pair()
        let inHandler = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let readerDone = Flag()
        let connection = try MPVConnection(socket: ours) { event in
            if event.name == "slow" {
                inHandler.signal()
                // Held until `close` returns, or 3 s: longer than the old bounded wait, and bounded itself,
                // since a `close` that waits for this thread returns only once it lets go.
                _ = release.wait(timeout: .now() + 3)
            }
            if event.name == "connection-closed" { readerDone.set() }
        }
        try mpv.send(Array(#"{"event":"slow"}"#.utf8) + [10], .until(.after(10)))
        #expect(inHandler.wait(timeout: .now() + 30) == .success)
        connection.close()
        #expect(readerDone.isSet, "close returned while the reader thread was still running")
        release.signal()
        #expect(!connection.isOpen)
    }
}

private final class Flag: Sendable {
    private let value = Locked(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
