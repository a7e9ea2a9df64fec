import Foundation
import POSIX
import PTP

/// What one connection's quirks remember: the transaction count (`strict-transactions`), the folders
/// scanned so far (`lazy-handles`) and the folders made by a capture (`capture-new-folder`).
/// Touched by the session thread and, for events, by whichever thread changed the card.
final class QuirkState: Sendable {
    let quirks: Quirks
    private let memory = Locked(Memory())

    private struct Memory {
        var commandsSeen: UInt32 = 0
        var scanned: Set<UInt32> = [0]
        var newFolders: Set<UInt32> = []
    }

    init(quirks: Quirks) { self.quirks = quirks }

    /// Counts a command; false when `strict-transactions` is on and its id is not the count so far.
    /// GetDeviceInfo and OpenSession may carry 0, as the spec has them outside a session.
    func acceptsTransaction(_ command: PTPCommand) -> Bool {
        let expected = memory.withLock { memory -> UInt32 in
            defer { memory.commandsSeen &+= 1 }
            return memory.commandsSeen
        }
        guard quirks.contains(.strictTransactions) else { return true }
        if command.transactionID == 0 && (command.code == .getDeviceInfo || command.code == .openSession) { return true }
        return command.transactionID == expected
    }

    /// With `lazy-handles`, an object exists for the initiator once its folder was scanned.
    func isKnown(_ object: CardObject) -> Bool {
        guard quirks.contains(.lazyHandles) else { return true }
        return memory.withLock { $0.scanned.contains(object.parent) }
    }

    func isScanned(_ folder: UInt32) -> Bool {
        guard quirks.contains(.lazyHandles) else { return true }
        return memory.withLock { $0.scanned.contains(folder) }
    }

    func markScanned(_ folder: UInt32) { memory.withLock { _ = $0.scanned.insert(folder) } }

    /// Whether a card event reaches this connection's initiator.
    func forwards(_ event: PTPEvent, card: Card) -> Bool {
        if quirks.contains(.noEvents) { return false }
        guard quirks.contains(.captureNewFolder), event.code == .objectAdded else { return true }
        let handle = event.parameter(0)
        guard let object = card.object(handle) else { return true }
        return memory.withLock { memory in
            if memory.newFolders.contains(object.parent) { return false }
            if object.isFolder { memory.newFolders.insert(handle) }
            return true
        }
    }
}

/// A session kept by the camera rather than the connection (`sticky-session`): one that was not closed
/// is still open when the next connection arrives.
final class StickySession: Sendable {
    private let id = Locked<UInt32?>(nil)

    var openID: UInt32? { id.withLock { $0 } }
    func open(_ value: UInt32) { id.withLock { $0 = value } }
    func close() { id.withLock { $0 = nil } }
}
