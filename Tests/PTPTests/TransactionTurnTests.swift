import Foundation
import POSIX
import TestSupport
import Testing
@testable import PTP

/// Turn-taking on one session: a background caller (a job's chunks) lets an interactive request waiting
/// go next, so the interactive one waits for at most the one chunk in flight. Order is asserted from what
/// the responder received; the test holds the chunk in flight until the interactive request is queued.
@Suite struct TransactionTurnTests {
    /// A session whose responder records every command and holds the first GetPartialObject until the test
    /// lets it go.
    final class Rig: @unchecked Sendable {
        // Safety: every member is immutable; the boxes and mailboxes lock themselves.
        let session: PTPSession
        let responder: ScriptedResponder
        let seen = LockedBox<[String]>([])
        let inFlight = Mailbox<String>()
        let release = Mailbox<Bool>()

        init() {
            let (initiator, transport) = InMemoryTransport.makePair(chunkSize: 1000, timeout: 5)
            session = PTPSession(transport: initiator)
            let (seen, inFlight, release) = (seen, inFlight, release)
            let held = LockedBox(false)
            responder = ScriptedResponder(transport) { incoming, _ in
                let command = incoming.command
                let name = command.code == .getPartialObject ? "chunk \(command.parameters[1])" : "\(command.code)"
                seen.append(name)
                if command.code == .getPartialObject && !held.mutate({ let was = $0; $0 = true; return was }) {
                    inFlight.put(name)
                    _ = release.take()
                }
                return PTPResponse(.ok, transactionID: command.transactionID)
            }
        }

        /// A job's stream of `count` chunks, on a thread of its own, marked background.
        func startBackgroundStream(chunks count: Int) -> Mailbox<Result<Int, Error>> {
            let done = Mailbox<Result<Int, Error>>()
            let session = session
            Thread {
                done.put(Result {
                    try PTPSession.asBackground {
                        for index in 0..<count { try session.execute(.getPartialObject, [7, UInt32(index), 100]) }
                        return count
                    }
                })
            }.start()
            return done
        }

        func startInteractive(_ operation: OperationCode) -> Mailbox<Result<Bool, Error>> {
            let done = Mailbox<Result<Bool, Error>>()
            let session = session
            Thread { done.put(Result { try session.execute(operation); return true }) }.start()
            return done
        }
    }

    @Test func anInteractiveRequestQueuedBehindABackgroundStreamGoesNext() throws {
        let rig = Rig()
        let stream = rig.startBackgroundStream(chunks: 3)
        #expect(rig.inFlight.take() == "chunk 0")
        let listing = rig.startInteractive(.getNumObjects)
        #expect(rig.session.waitForCallers(timeout: 10) { $0.interactive == 1 })
        rig.release.put(true)
        #expect(try listing.take()?.get() == true)
        #expect(try stream.take()?.get() == 3)
        #expect(rig.seen.value == ["chunk 0", "GetNumObjects", "chunk 1", "chunk 2"])
        rig.session.close()
    }

    /// Several interactive requests waiting all go before the stream's next chunk.
    @Test func everyWaitingInteractiveRequestGoesBeforeTheNextChunk() throws {
        let rig = Rig()
        let stream = rig.startBackgroundStream(chunks: 2)
        #expect(rig.inFlight.take() == "chunk 0")
        let info = rig.startInteractive(.getNumObjects)
        let storages = rig.startInteractive(.getStorageIDs)
        #expect(rig.session.waitForCallers(timeout: 10) { $0.interactive == 2 })
        rig.release.put(true)
        #expect(try info.take()?.get() == true)
        #expect(try storages.take()?.get() == true)
        #expect(try stream.take()?.get() == 2)
        let seen = rig.seen.value
        #expect(seen.first == "chunk 0" && seen.last == "chunk 1")
        #expect(Set(seen[1...2]) == ["GetNumObjects", "GetStorageIDs"])
        rig.session.close()
    }

    /// A caller's cancellation ends its wait for the turn (Ctrl-C while a chunk is in flight), sends
    /// nothing, and does not cancel the job on the other thread.
    @Test func cancellingAWaitingCallerStopsOnlyThatCaller() throws {
        let rig = Rig()
        let stream = rig.startBackgroundStream(chunks: 2)
        #expect(rig.inFlight.take() == "chunk 0")
        let stop = LockedBox(false)
        let done = Mailbox<Result<Bool, Error>>()
        let session = rig.session
        Thread {
            done.put(Result {
                _ = try session.whileCancellable(Cancellation(when: { stop.value })) { try session.execute(.getNumObjects) }
                return true
            })
        }.start()
        #expect(rig.session.waitForCallers(timeout: 10) { $0.interactive == 1 })
        stop.set(true)
        let outcome = try #require(done.take())
        #expect(throws: CancellationError.self) { try outcome.get() }
        rig.release.put(true)
        #expect(try stream.take()?.get() == 2)
        #expect(rig.seen.value == ["chunk 0", "chunk 1"])
        rig.session.close()
    }

    /// Marking is scoped to the thread: outside `asBackground`, and on other threads, callers are interactive.
    @Test func backgroundIsScopedToTheCallersThread() throws {
        #expect(PTPSession.currentPriority == .interactive)
        let inside = PTPSession.asBackground { PTPSession.currentPriority }
        #expect(inside == .background)
        #expect(PTPSession.currentPriority == .interactive)
        let other = Mailbox<TransactionPriority>()
        PTPSession.asBackground {
            Thread { other.put(PTPSession.currentPriority) }.start()
        }
        #expect(other.take() == .interactive)
    }
}
