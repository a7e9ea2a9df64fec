import Foundation
import PTP

/// What SendObjectInfo left for the next SendObject: a file to receive, or a folder already made (some
/// initiators send an empty SendObject after creating a folder).
enum ResponderUpload: Equatable {
    case file(PendingUpload)
    case folder(UInt32)
}

/// Uploads (SendObjectInfo, SendObject), answered only by a card given an `UploadPolicy`.
extension ResponderSession {
    /// SendObjectInfo(storage, parent) with an ObjectInfo: reserves a file's handle, or creates a folder
    /// when the format is an association. Answers [storage, parent, handle].
    func answerSendObjectInfo(_ command: PTPCommand, _ bytes: [UInt8]) -> Answer {
        pendingUpload = nil
        // Not offered in DeviceInfo, so not an operation of this camera (or, listed on a read-only card, refused).
        guard card.uploads != nil else { return .fail(card.readOnly ? .storeReadOnly : .operationNotSupported) }
        let storage = command.parameter(0)
        guard storage == 0 || storage == card.storage.id else { return .fail(.invalidStorageID) }
        let requestedParent = command.parameter(1)
        let parent = requestedParent == 0xFFFF_FFFF ? 0 : requestedParent
        guard let info = try? ObjectInfo(decoding: bytes) else { return .fail(.invalidDataset) }
        do {
            if info.format == .association {
                let handle = try card.createFolder(name: info.filename, parent: parent)
                pendingUpload = .folder(handle)
                camera.log("created folder \(card.path(of: handle) ?? info.filename)")
                return Answer(parameters: [card.storage.id, requestedParent, handle])
            }
            let size: UInt64? = info.compressedSize == 0xFFFF_FFFF ? nil : UInt64(info.compressedSize)
            let pending = try card.reserveUpload(name: info.filename, parent: parent, size: size)
            pendingUpload = .file(pending)
            return Answer(parameters: [card.storage.id, requestedParent, pending.handle])
        } catch let error as CardError {
            camera.log("SendObjectInfo \(info.filename.debugDescription): \(error)")
            return .fail(Self.responseCode(for: error, operation: command.code))
        } catch {
            return .fail(.generalError)
        }
    }

    /// SendObject: streams the data phase into the reserved file. Anything short of a whole file (a
    /// refused size, a full disk, a cancel, a dropped connection) removes what was written. Throws only
    /// when the connection itself failed.
    func receiveObject(_ command: PTPCommand) throws -> Answer {
        let upload = sessionID == nil ? nil : pendingUpload
        pendingUpload = nil
        guard case .file(let pending) = upload else {
            try drain(command)
            if sessionID == nil { return .fail(.sessionNotOpen) }
            if card.uploads == nil { return .fail(card.readOnly ? .storeReadOnly : .operationNotSupported) }
            if case .folder = upload { return Answer() }
            return .fail(.noValidObjectInfo)
        }
        let sink: UploadSink
        do {
            sink = try card.beginUpload(pending)
        } catch let error as CardError {
            try drain(command)
            return .fail(Self.responseCode(for: error, operation: command.code))
        }
        do {
            // A card that fills up half-way through the bytes (`full-mid-upload`).
            let target: DataSink = quirks.contains(.fullMidUpload) ? FillingCard(sink, room: (pending.announcedSize ?? pending.limit) / 2) : sink
            try transport.receiveData(transactionID: command.transactionID, limit: pending.limit, into: target)
            _ = try sink.commit()
            camera.log("received \(pending.path) (\(sink.received) bytes)")
            return Answer()
        } catch let error as CardError {
            sink.abort()
            camera.log("SendObject \(pending.path): \(error)")
            return .fail(Self.responseCode(for: error, operation: command.code))
        } catch PTPError.dataTooLarge {
            sink.abort()
            camera.log("SendObject \(pending.path): more than the \(pending.limit) bytes accepted")
            return .fail(pending.announcedSize == nil ? .storeFull : .objectTooLarge)
        } catch is CancellationError {
            sink.abort()
            return .fail(.transactionCancelled)
        } catch {
            sink.abort()
            throw error
        }
    }

    /// Reads and drops a data phase that is refused, keeping the connection in step.
    private func drain(_ command: PTPCommand) throws {
        do {
            try transport.receiveData(transactionID: command.transactionID, limit: .max, into: DiscardSink())
        } catch PTPError.dataTooLarge {}
    }
}

/// Takes a data phase and keeps nothing.
final class DiscardSink: DataSink {
    func begin(expectedLength: UInt64?) throws {}
    func write(_ chunk: UnsafeRawBufferPointer) throws {}
}

/// Passes a data phase on until `room` bytes, then fails as a full card does.
final class FillingCard: DataSink {
    let inner: DataSink
    let room: UInt64
    private var taken: UInt64 = 0

    init(_ inner: DataSink, room: UInt64) {
        self.inner = inner
        self.room = room
    }

    func begin(expectedLength: UInt64?) throws { try inner.begin(expectedLength: expectedLength) }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        guard taken + UInt64(chunk.count) <= room else { throw CardError.full(needed: taken + UInt64(chunk.count), free: room) }
        try inner.write(chunk)
        taken += UInt64(chunk.count)
    }
}
