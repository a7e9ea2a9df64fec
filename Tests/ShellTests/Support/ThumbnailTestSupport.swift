import Foundation
import MediaFormats
import MediaManager
import POSIX
import PTP
import TestSupport
import Thumbnails
import VirtualCamera

@testable import Shell

/// `text` without terminal escapes (SGR and cursor CSI sequences, kitty APC, iTerm2 OSC, save/restore).
func strippingEscapes(_ text: String) -> String {
    text.replacing(/\u{1B}\[[0-9;?]*[A-Za-z]|\u{1B}_G[^\u{1B}]*\u{1B}\\|\u{1B}\][^\u{07}]*\u{07}|\u{1B}[78]/, with: "")
}

/// How many `▀` (half-block pixel columns) a line holds.
func halfBlocks(_ line: some StringProtocol) -> Int {
    line.reduce(0) { $0 + ($1 == "\u{2580}" ? 1 : 0) }
}

/// The bytes of a demo media file.
func demoBytes(_ name: String) throws -> [UInt8] {
    guard let path = DemoMedia.file(name) else { throw CommandError("no demo file \(name)") }
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// ffmpeg on this machine's PATH, for the tests of video proxies.
let ffmpegIsInstalled = KeyframeDecoder.find(environment: ProcessInfo.processInfo.environment) != nil

/// A camera transport that answers every GetThumb with NoThumbnailPresent, as many cameras do for videos,
/// and counts the bytes of file data the device sends (GetObject and partial reads).
final class NoThumbnailTransport: InitiatorTransport, Sendable {
    let inner: InitiatorTransport
    private let counts = Locked<(received: UInt64, wholeObjects: Int)>((0, 0))

    init(_ inner: InitiatorTransport) { self.inner = inner }

    var fileBytesReceived: UInt64 { counts.withLock { $0.received } }
    var getObjectRequests: Int { counts.withLock { $0.wholeObjects } }

    func resetCounts() { counts.withLock { $0 = (0, 0) } }

    func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        switch command.code {
        case .getThumb:
            return PTPResponse(.noThumbnailPresent, transactionID: command.transactionID)
        case .getObject, .getPartialObject, .getPartialObject64:
            if command.code == .getObject { counts.withLock { $0.wholeObjects += 1 } }
            let counting = dataIn.map { CountingDataSink($0) }
            defer { if let counting { counts.withLock { $0.received += counting.count } } }
            return try inner.transact(command, dataOut: dataOut, dataIn: counting)
        default:
            return try inner.transact(command, dataOut: dataOut, dataIn: dataIn)
        }
    }

    func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { inner.setEventHandler(handler) }
    func close() { inner.close() }
}

private final class CountingDataSink: DataSink {
    let inner: DataSink
    var count: UInt64 = 0
    init(_ inner: DataSink) { self.inner = inner }
    func begin(expectedLength: UInt64?) throws { try inner.begin(expectedLength: expectedLength) }
    func write(_ chunk: UnsafeRawBufferPointer) throws {
        count += UInt64(chunk.count)
        try inner.write(chunk)
    }
}

/// The virtual camera serving `folder` in this process, through a `NoThumbnailTransport`.
func sessionWithoutThumbnails(folder: String) throws -> (MediaSession, NoThumbnailTransport) {
    let camera = VirtualCamera(card: try Card(folder: folder))
    let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1 << 20, timeout: 10)
    let thread = Thread { camera.serve(responder, peer: "test") }
    thread.start()
    let transport = NoThumbnailTransport(initiator)
    let url = CameraURL.folder(path: folder)
    let device = try Camera(transport: transport, location: url.description) { responder.close() }
    return (MediaSession(camera: device, url: url), transport)
}

/// A copy of the demo's landscape photo whose EXIF thumbnail is damaged by `damage` (given the thumbnail's
/// bytes, in place, so the EXIF offsets stay right).
func photoWithDamagedThumbnail(_ damage: (inout ArraySlice<UInt8>) -> Void) throws -> [UInt8] {
    var photo = try demoBytes("photo_landscape.jpg")
    guard let range = try JPEGReader().read(from: MemoryByteSource(photo)).exif?.thumbnailRange else {
        throw CommandError("the demo photo has no EXIF thumbnail")
    }
    damage(&photo[Int(range.lowerBound)..<Int(range.upperBound)])
    return photo
}

/// The line of names under a row of `tile`-column tiles set `gap` apart, each name centred in its tile.
func nameRow(_ names: [String], tile: Int, gap: Int = 2) -> String {
    let cells = names.map { name -> String in
        let extra = tile - name.count
        return String(repeating: " ", count: extra / 2) + name + String(repeating: " ", count: extra - extra / 2)
    }
    var line = cells.joined(separator: String(repeating: " ", count: gap))
    while line.last == " " { line.removeLast() }
    return line
}
