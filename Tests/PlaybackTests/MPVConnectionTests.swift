import Foundation
import POSIX
import TestSupport
import Testing
@testable import Playback

/// `MPVConnection.close` and its reader thread: the socket is released only once the reader has let go.
@Suite struct MPVConnectionTests {
    /// The race that was: `close` waited 2 s at most for the reader, then closed the descriptor the reader
    /// could still be about to read (by then, perhaps, another file's). Here the reader is held in an event
    /// handler for longer than that; `close` must still return only once the reader has finished.
    @Test func closeReturnsOnlyOnceTheReaderThreadHasFinished() throws {
        let (ours, mpv) = try Socket.pair()
        let inHandler = Mailbox<Void>()
        let release = Mailbox<Void>()
        let readerDone = Flag()
        let connection = try MPVConnection(socket: ours) { event in
            if event.name == "slow" {
                inHandler.put(())
                // Held until `close` returns, or 3 s: longer than the old bounded wait, and bounded itself,
                // since a `close` that waits for this thread returns only once it lets go.
                _ = release.take(timeout: 3)
            }
            if event.name == "connection-closed" { readerDone.set() }
        }
        try mpv.send(Array(#"{"event":"slow"}"#.utf8) + [10], .until(.after(10)))
        #expect(inHandler.take(timeout: 30) != nil)
        connection.close()
        #expect(readerDone.isSet, "close returned while the reader thread was still running")
        release.put(())
        #expect(!connection.isOpen)
    }
}

private final class Flag: Sendable {
    private let value = Locked(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
