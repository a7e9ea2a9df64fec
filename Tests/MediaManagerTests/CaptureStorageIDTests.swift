import Foundation
import POSIX
import PTP
import TestSupport
import Testing
import VirtualCamera

@testable import MediaManager

/// A camera whose ObjectInfo names a StorageID that is none of its stores (as petabyt/vcam's Canon EOS
/// personas write 0x10000001 where the only store is 0x00010001): a capture that makes a new folder, on a
/// camera that announces nothing, lists the folder in its parent's store and finds the shot. It failed
/// with "GetObjectHandles failed: invalid storage id (0x2008)".
@Suite struct CaptureStorageIDTests {
    /// The virtual camera's side of the connection, with every ObjectInfo's StorageID rewritten.
    final class WrongStorageID: ResponderTransport, @unchecked Sendable {
        // Safety: `lastCommand` is touched only on the session's one thread (receive, then answer).
        let inner: ResponderTransport
        var lastCommand: OperationCode?
        init(_ inner: ResponderTransport) { self.inner = inner }

        func receiveCommand() throws -> IncomingCommand? {
            let incoming = try inner.receiveCommand()
            lastCommand = incoming?.command.code
            return incoming
        }
        func receiveData(transactionID: UInt32, limit: Int) throws -> [UInt8] {
            try inner.receiveData(transactionID: transactionID, limit: limit)
        }
        func sendData(transactionID: UInt32, source: DataSource) throws {
            guard lastCommand == .getObjectInfo else { return try inner.sendData(transactionID: transactionID, source: source) }
            var bytes = [UInt8](repeating: 0, count: Int(source.length))
            var filled = 0
            while filled < bytes.count {
                let n = try bytes.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
                if n == 0 { break }
                filled += n
            }
            bytes.replaceSubrange(0..<4, with: [0x01, 0x00, 0x00, 0x10])  // 0x10000001
            try inner.sendData(transactionID: transactionID, source: BufferSource(bytes))
        }
        func sendResponse(_ response: PTPResponse) throws { try inner.sendResponse(response) }
        func sendEvent(_ event: PTPEvent) throws { try inner.sendEvent(event) }
        func close() { inner.close() }
    }

    @Test func aCaptureIntoANewFolderIsFoundWhateverStorageIDItsObjectInfoNames() throws {
        let card = try CardFolder(["DCIM/100CANON/IMG_0001.JPG": 1_000])
        let folder = try Card(folder: card.path)
        try DemoCard.enableCapture(on: folder)
        let virtual = VirtualCamera(card: folder, quirks: [.captureNewFolder, .noEvents, .noProplist])
        let (initiator, responder) = InMemoryTransport.makePair(timeout: 10)
        let wrapped = WrongStorageID(responder)
        Thread { virtual.serve(wrapped) }.start()
        let camera = try Camera(transport: initiator, location: "test", onClose: { responder.close() })
        let session = MediaSession(camera: camera, url: .simulator(path: card.path))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let result = try session.capture(timeout: 0.2)
        #expect(result.foundByListing)
        #expect(result.files.count == 1)
        let shot = try #require(result.files.first)
        #expect(shot.path.hasPrefix("DCIM/101"), "\(shot.path)")
        #expect(FileManager.default.fileExists(atPath: card.path + "/" + shot.path))
    }
}
