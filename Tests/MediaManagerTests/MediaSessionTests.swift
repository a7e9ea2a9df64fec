import Connectors
import Foundation
import MediaFormats
import PTP
import PTPIP
import TestSupport
import Testing
import VirtualCamera
@testable import MediaManager

/// A card folder on disk for media-manager tests.
final class CardFolder {
    let path: String
    var files: [String: [UInt8]] = [:]

    init(_ layout: [String: Int]) throws {
        path = try temporaryFolder()
        for (relative, size) in layout {
            let bytes = randomBytes(size)
            files[relative] = bytes
            let url = URL(fileURLWithPath: path + "/" + relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
            // Taken long ago, so that a download's time is told apart from the capture time.
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: url.path)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A PTP/IP server in this process serving a card, restartable on the same port.
final class LoopbackServer: @unchecked Sendable {
    let camera: VirtualCamera
    var server: PTPIPServer
    var port: UInt16 { server.port }

    init(card: Card) throws {
        let camera = VirtualCamera(card: card)
        self.camera = camera
        server = LoopbackServer.make(camera: camera, port: 0)
        try server.start()
    }

    static func make(camera: VirtualCamera, port: UInt16) -> PTPIPServer {
        PTPIPServer(host: "127.0.0.1", port: port) { connection, peer in
            camera.serve(connection, peer: peer.address)
        }
    }

    func restart() throws {
        let port = self.port
        server.stop()
        server = LoopbackServer.make(camera: camera, port: port)
        try server.start()
    }

    var url: CameraURL { .ptpip(host: "127.0.0.1", port: port, eventPort: port) }
}

@Suite(.tags(.process), .notInFastRun) struct MediaSessionTests {
    static let layout = [
        "DCIM/100MEDIA/DJI_0001.JPG": 12_345, "DCIM/100MEDIA/DJI_0002.MP4": 2_000_001,
        "DCIM/100MEDIA/DJI_0002.SRT": 300, "DCIM/100MEDIA/DJI_0002.LRF": 4_000,
        "DCIM/101MEDIA/IMG_0001.CR3": 5_000, "DCIM/101MEDIA/IMG_0001.JPG": 1_000,
    ]

    func check(_ session: MediaSession, _ card: CardFolder) throws {
        try session.catalog.ensureLoaded()
        #expect(session.catalog.state == .upToDate)
        #expect(session.catalog.folderPaths == ["", "DCIM", "DCIM/100MEDIA", "DCIM/101MEDIA"])
        let files = session.catalog.allFiles()
        #expect(Set(files.map(\.path)) == Set(card.files.keys))
        for file in files { #expect(file.size == UInt64(card.files[file.path]!.count)) }
        #expect(session.catalog.fileCount == files.count)
        // Every record is found by its handle (the catalog keeps where it is, not a second copy).
        for file in files { #expect(session.catalog.file(id: file.id) == file) }
        let mp4 = try #require(session.catalog.file(atPath: "DCIM/100MEDIA/DJI_0002.MP4"))
        #expect(mp4.kind == .mp4)
        #expect(session.catalog.group(of: mp4).map(\.name) == ["DJI_0002.MP4", "DJI_0002.LRF", "DJI_0002.SRT"])
        let raw = try #require(session.catalog.file(atPath: "DCIM/101MEDIA/IMG_0001.CR3"))
        #expect(session.catalog.group(of: raw).map(\.name) == ["IMG_0001.CR3", "IMG_0001.JPG"])
        // Paths with empty parts name the same folders and files as clean ones.
        for path in ["DCIM/100MEDIA", "/DCIM/100MEDIA", "DCIM//100MEDIA/", "//DCIM/100MEDIA//", "DCIM/"] {
            #expect(session.catalog.isFolder(path), "\(path)")
        }
        #expect(session.catalog.isFolder("") && session.catalog.isFolder("/"))
        #expect(!session.catalog.isFolder("DCIM/100MEDIA/DJI_0001.JPG") && !session.catalog.isFolder("DCIM/100"))
        #expect(session.catalog.file(atPath: "/DCIM//101MEDIA/IMG_0001.JPG")?.size == 1_000)
        Self.expectRecordsAreFoldersExactlyWhereTheCatalogHasFolders(session.catalog)

        let destination = try temporaryFolder()
        let reported = LockedBox<[String]>([])
        let results = try session.fetch(files, to: destination, each: { r in reported.mutate { $0.append(r.file.path) } })
        #expect(results.count == files.count)
        // Reported once each, in order, after being committed; no .part is left.
        #expect(reported.value == files.map(\.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination).allSatisfy { !$0.hasSuffix(".part") })
        for result in results {
            guard case .success(.downloaded(let path, _, _)) = result.outcome else {
                Issue.record("\(result.file.path): \(result.outcome)")
                continue
            }
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == card.files[result.file.path])
            // The capture time (the card file's date) as the modification time, as gphoto2 does.
            let mtime = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            if let captured = result.file.captureDate, let mtime {
                #expect(abs(mtime.timeIntervalSince(captured)) < 1, "\(path): \(mtime) is not \(captured)")
            } else {
                Issue.record("\(path): no capture date or modification time")
            }
        }
        // The same files are already there: nothing transferred the second time, with or without onlyNew.
        var onlyNew = MediaSession.FetchOptions()
        onlyNew.onlyNew = true
        for options in [onlyNew, MediaSession.FetchOptions()] {
            let again = try session.fetch(files, to: destination, options: options)
            #expect(again.allSatisfy { if case .success(.skippedExisting) = $0.outcome { true } else { false } })
        }
        // A different file at the name is kept, and the camera's file takes a unique name, in this run and
        // the next; --force replaces it instead.
        let local = destination + "/DJI_0002.MP4"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: local))
        let renamed = try session.fetch([mp4], to: destination)
        #expect(try renamed[0].outcome.get() == .downloaded(path: destination + "/DJI_0002 (2).MP4", bytes: mp4.size, resumedFrom: 0))
        #expect(try Data(contentsOf: URL(fileURLWithPath: local)) == Data([1, 2, 3]))
        let next = try session.fetch([mp4], to: destination)
        #expect(try next[0].outcome.get() == .skippedExisting(path: destination + "/DJI_0002 (2).MP4"))
        var force = MediaSession.FetchOptions()
        force.overwrite = true
        let replaced = try session.fetch([mp4], to: destination, options: force)
        #expect(try replaced[0].outcome.get() == .downloaded(path: local, bytes: mp4.size, resumedFrom: 0))
    }

    /// `ls` takes a record's `isFolder` for whether the catalog holds a folder at its path (no lookup per
    /// file): every record of every folder says so exactly.
    static func expectRecordsAreFoldersExactlyWhereTheCatalogHasFolders(_ catalog: MediaCatalog) {
        var folders = 0
        for path in catalog.folderPaths {
            for file in catalog.contents(of: path) ?? [] {
                let child = path.isEmpty ? file.name : path + "/" + file.name
                #expect(file.isFolder == catalog.isFolder(child), "\(child)")
                if file.isFolder { folders += 1 }
            }
        }
        #expect(folders == catalog.folderPaths.count - 1)  // every folder but the root is some folder's record
    }

    @Test func worksOverACardFolder() throws {
        let card = try CardFolder(Self.layout)
        let session = try MediaSession.open(.folder(path: card.path))
        defer { session.close() }
        try check(session, card)
        #expect(!session.camera.summary.model.isEmpty)
    }

    /// A file looked up by its path is found in a large folder whatever its place in the order (first, last,
    /// a name that sorts between others by its bytes), and a name that is not there, or only in another
    /// case, is nil.
    @Test func aFileIsFoundByItsPathInALargeFolder() throws {
        var layout: [String: Int] = [:]
        for n in 0..<300 { layout["DCIM/100MEDIA/IMG_\(String(format: "%04d", n)).JPG"] = 1 }
        layout["DCIM/100MEDIA/a-lower.JPG"] = 2
        layout["DCIM/100MEDIA/Z.JPG"] = 3
        let card = try CardFolder(layout)
        let session = try MediaSession.open(.folder(path: card.path))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        for name in ["IMG_0000.JPG", "IMG_0150.JPG", "IMG_0299.JPG", "a-lower.JPG", "Z.JPG"] {
            #expect(session.catalog.file(atPath: "DCIM/100MEDIA/" + name)?.name == name)
        }
        #expect(session.catalog.file(atPath: "DCIM/100MEDIA/Z.JPG")?.size == 3)
        #expect(session.catalog.file(atPath: "/DCIM/100MEDIA/IMG_0007.JPG")?.name == "IMG_0007.JPG")
        #expect(session.catalog.file(atPath: "DCIM/100MEDIA/IMG_0300.JPG") == nil)
        #expect(session.catalog.file(atPath: "DCIM/100MEDIA/z.jpg") == nil)
        #expect(session.catalog.file(atPath: "DCIM/100MEDIA")?.isFolder == true)
    }

    @Test func worksOverPTPIP() throws {
        let card = try CardFolder(Self.layout)
        let server = try LoopbackServer(card: try Card(folder: card.path))
        defer { server.server.stop() }
        let session = try MediaSession.open(server.url)
        defer { session.close() }
        try check(session, card)
    }

    @Test func worksWithoutPropListByAskingPerObject() throws {
        // A device without GetObjectPropList (many USB cameras): the per-object fallback lists the same.
        let card = try CardFolder(Self.layout)
        let session = try MediaSession.open(.folder(path: card.path))
        defer { session.close() }
        session.camera.setPropListWorks(false)
        try check(session, card)
    }

    @Test func aDownloadCutByTheResponderGoingAwayResumesAfterItReturns() throws {
        let card = try CardFolder(["DCIM/100MEDIA/BIG.MP4": 9_000_000])
        let server = try LoopbackServer(card: try Card(folder: card.path))
        defer { server.server.stop() }
        let destination = try temporaryFolder()
        var options = MediaSession.FetchOptions()
        options.chunkSize = 1 << 20
        do {
            let session = try MediaSession.open(server.url)
            try session.catalog.ensureLoaded()
            let file = try #require(session.catalog.file(atPath: "DCIM/100MEDIA/BIG.MP4"))
            let stopped = LockedBox(false)
            let results = try session.fetch([file], to: destination, options: options, progress: { p in
                // Kill the responder once ~3.3 MB arrived, from inside the transfer.
                if p.bytesDone > 3_300_000 && !stopped.value {
                    stopped.set(true)
                    server.server.stop()
                }
            })
            #expect(throws: DownloadError.self) { try results[0].outcome.get() }
            session.close()
        }
        let partSize = try #require(try FileManager.default.attributesOfItem(atPath: destination + "/BIG.MP4.part")[.size] as? Int)
        #expect(partSize > 3_000_000 && partSize < 9_000_000)
        try server.restart()
        let session = try MediaSession.open(server.url)
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let file = try #require(session.catalog.file(atPath: "DCIM/100MEDIA/BIG.MP4"))
        let results = try session.fetch([file], to: destination, options: options)
        #expect(try results[0].outcome.get() == .downloaded(path: destination + "/BIG.MP4", bytes: 9_000_000, resumedFrom: UInt64(partSize)))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination + "/BIG.MP4"))) == card.files["DCIM/100MEDIA/BIG.MP4"])
    }

    /// A file's group is the files of its folder with its stem, whatever their case: not a longer stem that
    /// starts alike, nor a shorter one; a non-ASCII stem groups as `lowercased()` says.
    @Test func aGroupIsTheSameStemInAnyCase() throws {
        let names = ["DJI_0042.MP4", "dji_0042.srt", "DJI_0042.LRF", "DJI_00421.MP4", "DJI_0042_1.MP4", "DJI_004.MP4",
            "DJI_0042", "Été.JPG", "été.xmp", "ÉTÉ2.JPG", "x.tar.gz", "X.TAR.xmp", "x.tar"]
        let card = try CardFolder(Dictionary(uniqueKeysWithValues: names.map { ("DCIM/100MEDIA/" + $0, 10) }))
        let session = try MediaSession.open(.folder(path: card.path))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        func group(_ name: String) throws -> Set<String> {
            let file = try #require(session.catalog.file(atPath: "DCIM/100MEDIA/" + name))
            let group = session.catalog.group(of: file)
            #expect(group.first?.name == name, "the named file comes first")
            return Set(group.map(\.name))
        }
        #expect(try group("DJI_0042.MP4") == ["DJI_0042.MP4", "dji_0042.srt", "DJI_0042.LRF", "DJI_0042"])
        #expect(try group("dji_0042.srt") == ["DJI_0042.MP4", "dji_0042.srt", "DJI_0042.LRF", "DJI_0042"])
        #expect(try group("DJI_00421.MP4") == ["DJI_00421.MP4"])
        #expect(try group("Été.JPG") == ["Été.JPG", "été.xmp"])
        #expect(try group("x.tar.gz") == ["x.tar.gz", "X.TAR.xmp"])
    }

    @Test func deletesOneFileAndAGlobsWorthReportingEach() throws {
        let card = try CardFolder(Self.layout)
        let session = try MediaSession.open(.folder(path: card.path))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let mp4 = try #require(session.catalog.file(atPath: "DCIM/100MEDIA/DJI_0002.MP4"))
        let group = session.catalog.group(of: mp4)
        let states = LockedBox<[MediaCatalog.State]>([])
        let results = session.delete(group) { _, _ in states.mutate { $0.append(session.catalog.state) } }
        #expect(states.value == [.deleting, .deleting, .deleting])
        #expect(session.catalog.state == .upToDate)
        #expect(results.allSatisfy { $0.1 == nil })
        for f in group { #expect(!FileManager.default.fileExists(atPath: card.path + "/" + f.path)) }
        #expect(session.catalog.contents(of: "DCIM/100MEDIA")?.map(\.name) == ["DJI_0001.JPG"])
        // Deleting it again: a per-file error, not a crash.
        let again = session.delete([mp4])
        #expect(again[0].1 != nil)
    }

    @Test func captureOnTheSimulatorAddsAFileToTheCatalog() throws {
        let card = try CardFolder(["DCIM/100MEDIA/DJI_0009.JPG": 10])
        let session = try MediaSession.open(.simulator(path: card.path), options: .writingToFolder)
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let added = try session.capture(timeout: 10).files
        #expect(added.map(\.path) == ["DCIM/100MEDIA/IMG_0001.JPG"])
        #expect(session.catalog.file(atPath: "DCIM/100MEDIA/IMG_0001.JPG") != nil)
        #expect(FileManager.default.fileExists(atPath: card.path + "/DCIM/100MEDIA/IMG_0001.JPG"))
    }

    @Test func theDemoCardLooksLikeADrone() throws {
        let session = try MediaSession.open(.simulator(path: nil))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let names = session.catalog.contents(of: "DCIM/100MEDIA")?.map(\.name) ?? []
        #expect(names.contains("DJI_0001.JPG"))
        #expect(names.contains("DJI_0003.MP4"))
        #expect(names.contains("DJI_0003.SRT"))
        #expect(names.contains("DJI_0003.LRF"))
        // Video details come with the listing (MTP properties), without reading the files here.
        let landscape = try #require(session.catalog.file(atPath: "DCIM/100MEDIA/DJI_0003.MP4")?.video)
        #expect(landscape.duration == 3.0)
        #expect(landscape.width == 640 && landscape.height == 360)
        #expect(landscape.framesPerSecond == 30)
        #expect(landscape.orientation == .landscape)
        let portrait = try #require(session.catalog.file(atPath: "DCIM/100MEDIA/DJI_0005.MP4")?.video)
        #expect(portrait.width == 360 && portrait.height == 640)
        #expect(portrait.orientation == .portrait)
        #expect(session.catalog.file(atPath: "DCIM/100MEDIA/DJI_0001.JPG")?.video == nil)
    }

    @Test func videoDetailsAreReadThroughPartialReadsWhenTheDeviceDoesNotListThem() throws {
        let session = try MediaSession.open(.simulator(path: nil))
        defer { session.close() }
        session.camera.setPropListWorks(false)
        try session.catalog.ensureLoaded()
        let file = try #require(session.catalog.file(atPath: "DCIM/100MEDIA/DJI_0005.MP4"))
        #expect(file.video == nil)
        let source = session.byteSource(for: file)
        let movie = try MovieReader().read(from: source)
        #expect(movie.videoTrack?.orientation == .portrait)
        #expect(source.bytesRead < file.size / 2)
        let details = try session.videoDetails(for: file)
        #expect(details.duration == 2.0)
        #expect(details.orientation == .portrait)
    }
}


@Suite struct CameraModeTests {
    @Test func theVirtualCameraRefusesMediaAccessInShootModeLikeADrone() throws {
        let card = try CardFolder(["DCIM/100MEDIA/DJI_0001.JPG": 100])
        let session = try MediaSession.open(.simulator(path: card.path), options: .writingToFolder)
        defer { session.close() }
        try session.catalog.ensureLoaded()
        #expect(try session.camera.workMode() == .download)
        try session.camera.setWorkMode(.shoot)
        #expect(try session.camera.workMode() == .shoot)
        let file = try #require(session.catalog.file(atPath: "DCIM/100MEDIA/DJI_0001.JPG"))
        let results = try session.fetch([file], to: try temporaryFolder())
        #expect(throws: (any Error).self) { try results[0].outcome.get() }
        #expect("\((try? results[0].outcome.get()).map { "\($0)" } ?? "\(results[0].outcome)")".contains("busy"))
        // Capture works in shoot mode; media access again in download mode.
        _ = try session.capture(timeout: 10)
        try session.camera.setWorkMode(.download)
        let again = try session.fetch([file], to: try temporaryFolder())
        #expect(throws: Never.self) { try again[0].outcome.get() }
    }

    @Test func aCameraWithoutAModeSaysSo() throws {
        let device = HostileDevice([])
        let session = try device.openSession()
        defer { session.close() }
        #expect(try session.camera.workMode() == nil)
        #expect(throws: PTPError.self) { try session.camera.setWorkMode(.shoot) }
    }
}

extension CameraConnector.Options {
    /// A `sim:PATH` that may write into its folder (a capture does), as `--writable` asks.
    fileprivate static var writingToFolder: Self {
        var options = Self()
        options.writableFolder = true
        return options
    }
}
