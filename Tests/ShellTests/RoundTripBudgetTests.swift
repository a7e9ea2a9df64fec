import Foundation
import MediaManager
import POSIX
import PTP
import TestSupport
import Testing
import VirtualCamera

@testable import Shell

/// Every request the initiator sends, with its parameters, so a test can count round trips.
final class RequestLog: InitiatorTransport, Sendable {
    let inner: InitiatorTransport
    private let state = Locked<(sent: [PTPCommand], cutsDepth: Bool)>(([], false))

    init(_ inner: InitiatorTransport) { self.inner = inner }

    var requests: [PTPCommand] { state.withLock { $0.sent } }
    var codes: [OperationCode] { requests.map(\.code) }
    func reset() { state.withLock { $0.sent = [] } }

    /// Sends GetObjectPropList's Depth all as Depth 1: a device that cuts the depth short.
    var depthAllAsOne: Bool {
        get { state.withLock { $0.cutsDepth } }
        set { state.withLock { $0.cutsDepth = newValue } }
    }

    func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        let passed = state.withLock { state -> PTPCommand in
            var passed = command
            state.sent.append(command)
            if state.cutsDepth && command.code == .getObjectPropList && command.parameter(4) == 0xFFFF_FFFF { passed.parameters[4] = 1 }
            return passed
        }
        return try inner.transact(passed, dataOut: dataOut, dataIn: dataIn)
    }

    func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { inner.setEventHandler(handler) }
    func close() { inner.close() }
}

/// Issue 15: the round-trip budgets, counted against the virtual camera (each request a round trip on a
/// real link: 2 to 10 ms on Wi-Fi).
@Suite("Round-trip budgets against the virtual camera")
struct RoundTripBudgetTests {
    /// A virtual camera serving `folder` in this process, reached through a request log.
    struct CountedCamera {
        let session: MediaSession
        let log: RequestLog

        init(folder: String) throws {
            try self.init(card: try Card(folder: folder))
        }

        init(card: Card) throws {
            let camera = VirtualCamera(card: card)
            let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1 << 20, timeout: 10)
            Thread { camera.serve(responder, peer: "test") }.start()
            log = RequestLog(initiator)
            let device = try Camera(transport: log, location: "sim:") { responder.close() }
            session = MediaSession(camera: device, url: .simulator(path: nil))
        }
    }

    /// A card folder with `count` photos in DCIM/100TEST (the demo photo, so each has a thumbnail).
    static func card(photos count: Int) throws -> TemporaryFolder {
        let card = try TemporaryFolder("msh-budget")
        let photo = try demoBytes("photo_landscape.jpg")
        for number in 1...count { try card.write(String(format: "DCIM/100TEST/IMG_%05d.JPG", number), photo) }
        return card
    }

    /// An in-memory card with `count` generated files of 1 MB in DCIM/100TEST (a big card without a big disk).
    static func generatedCard(files count: Int) -> Card {
        let card = Card(inMemoryLabel: "BUDGET")
        for number in 1...count {
            card.add(name: String(format: "IMG_%05d.JPG", number), in: "DCIM/100TEST", content: .generated(length: 1 << 20))
        }
        return card
    }

    @Test func listingAFolderIsOneGetObjectPropListWhateverItHolds() throws {
        for count in [3, 3000] {
            let camera = try CountedCamera(card: Self.generatedCard(files: count))
            defer { camera.session.close() }
            try camera.session.catalog.ensureLoaded()
            let folder = try #require(camera.session.catalog.file(atPath: "DCIM/100TEST"))
            camera.log.reset()
            let listing = try camera.session.camera.list(folder: folder.id, storage: folder.storageID, folderPath: "DCIM/100TEST")
            #expect(listing.files.count == count)
            #expect(camera.log.codes == [.getObjectPropList], "\(count) files cost \(camera.log.codes)")
        }
    }

    /// A shell on a counted camera of `photos` demo photos in DCIM/100TEST, downloading into a folder of
    /// its own, the folder listed already (what it asks for next is the test's).
    struct DownloadingShell {
        let card: TemporaryFolder
        let downloads: TemporaryFolder
        let camera: CountedCamera
        let shell: Interpreter
        let output: CapturedOutput

        init(photos: Int) throws {
            card = try RoundTripBudgetTests.card(photos: photos)
            downloads = try TemporaryFolder("msh-budget-get")
            camera = try CountedCamera(folder: card.path)
            var settings = Settings()
            settings.downloadFolder = downloads.path
            (shell, output, _) = makeInterpreter(settings: settings)
            shell.attach(camera.session)
            _ = shell.run(line: "ls DCIM/100TEST")
        }

        func close() { camera.session.close() }
    }

    @Test func downloadingAListedFileIsOneGetObject() throws {
        let test = try DownloadingShell(photos: 3)
        defer { test.close() }
        let (shell, output, camera, downloads) = (test.shell, test.output, test.camera, test.downloads)
        camera.log.reset()
        _ = shell.run(line: "fetch DCIM/100TEST/IMG_00002.JPG")
        #expect(output.errors.isEmpty, "\(output.errors)")
        #expect(FileManager.default.fileExists(atPath: downloads.path + "/IMG_00002.JPG"))
        // One request: a GetObject, or a GetPartialObject of the whole file (what resuming needs anyway).
        #expect(camera.log.codes.count == 1, "the download cost \(camera.log.codes)")
        #expect([.getObject, .getPartialObject, .getPartialObject64].contains(camera.log.codes.first))
    }

    /// A batch of files that each fit one request costs one request each, read a few ahead of the
    /// writing, each from byte 0; the files arrive byte for byte, and a second fetch of the same files asks
    /// for nothing. A file fetched already (skipped) is not read ahead either.
    @Test func fetchingABatchOfSmallFilesCostsOneRequestEachAndNothingTheSecondTime() throws {
        let test = try DownloadingShell(photos: 12)
        defer { test.close() }
        let (shell, output, camera, downloads) = (test.shell, test.output, test.camera, test.downloads)
        _ = shell.run(line: "fetch DCIM/100TEST/IMG_00005.JPG")
        camera.log.reset()
        _ = shell.run(line: "fetch DCIM/100TEST/*")
        #expect(output.errors.isEmpty, "\(output.errors)")
        let reads = camera.log.requests.filter { [.getObject, .getPartialObject, .getPartialObject64].contains($0.code) }
        #expect(reads.count == 11, "the batch cost \(camera.log.codes)")
        #expect(reads.allSatisfy { $0.code == .getObject || $0.parameter(1) == 0 }, "every read from byte 0")
        let photo = try demoBytes("photo_landscape.jpg")
        for number in 1...12 {
            let name = String(format: "IMG_%05d.JPG", number)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: downloads.path + "/" + name))) == photo, "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: downloads.path).count == 12)
        camera.log.reset()
        _ = shell.run(line: "fetch DCIM/100TEST/*")
        #expect(camera.log.requests.filter { [.getObject, .getPartialObject, .getPartialObject64].contains($0.code) }.isEmpty)
    }

    /// Importing files that each fit one request costs one request each after the listing: a photo's EXIF
    /// date, which names its folder, is read from the bytes of its download, and those bytes are the file.
    /// Photos with EXIF (two folders, one name in both), one without, a video: each lands byte for byte in
    /// its date's folder, the name taken twice made unique in the card's order.
    @Test func importingFilesThatFitOneRequestCostsOneRequestEach() throws {
        let card = try TemporaryFolder("msh-budget-import")
        let home = try TemporaryFolder("msh-budget-import-home")
        let photo = try demoBytes("photo_landscape.jpg")  // EXIF DateTimeOriginal 2024:05:01 10:12:03
        let listed = Date(timeIntervalSince1970: 1_600_000_000)  // what the card says: 2020-09-13
        let listedDay = ListingDay(listed)
        var expected: [String: [UInt8]] = [:]
        func add(_ path: String, _ bytes: [UInt8], to destination: String) throws {
            try card.write(path, bytes)
            try FileManager.default.setAttributes([.modificationDate: listed], ofItemAtPath: card.path + "/" + path)
            expected[destination] = bytes
        }
        for number in 1...3 {
            try add("DCIM/100TEST/IMG_0000\(number).JPG", photo + Array("a\(number)".utf8), to: "2024/05-01/IMG_0000\(number).JPG")
        }
        try add("DCIM/101TEST/IMG_00003.JPG", photo + Array("b3".utf8), to: "2024/05-01/IMG_00003 (2).JPG")
        try add("DCIM/101TEST/IMG_00004.JPG", photo + Array("b4".utf8), to: "2024/05-01/IMG_00004.JPG")
        try add("DCIM/101TEST/IMG_00005.JPG", patternBytes(5_000, seed: 5), to: "\(listedDay.path)/IMG_00005.JPG")
        try add("DCIM/101TEST/DJI_0006.MP4", patternBytes(70_000, seed: 6), to: "\(listedDay.path)/DJI_0006.MP4")

        let camera = try CountedCamera(folder: card.path)
        let (shell, output, _) = makeInterpreter()
        shell.environment["XDG_DATA_HOME"] = home.path + "/data"
        shell.attach(camera.session)
        defer { camera.session.close() }
        try camera.session.catalog.ensureLoaded()
        camera.log.reset()
        #expect(shell.run(line: "import --to \(home.path)/pictures/%Y/%m-%d") == .success, "\(output.errors)")

        let reads: Set<OperationCode> = [.getObject, .getPartialObject, .getPartialObject64]
        let objectRequests = camera.log.requests.filter { reads.contains($0.code) }
        #expect(objectRequests.count == expected.count, "\(expected.count) files cost \(camera.log.requests.map { "\($0.code) \($0.parameters)" })")
        // Each object asked once, from byte 0.
        #expect(Set(objectRequests.map { $0.parameters.first ?? 0 }).count == expected.count)
        #expect(objectRequests.allSatisfy { $0.code == .getObject || $0.parameters.dropFirst().first == 0 })
        // Besides them only the card read afresh and its stores named for the ledger: none per file.
        let others = camera.log.codes.filter { !reads.contains($0) }
        let perCard: Set<OperationCode> = [.getStorageIDs, .getStorageInfo, .getObjectPropList]
        #expect(others.count <= 5 && others.allSatisfy(perCard.contains), "besides the files: \(camera.log.codes)")

        let pictures = home.path + "/pictures"
        let landed = try FileManager.default.subpathsOfDirectory(atPath: pictures).filter { path in
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: pictures + "/" + path, isDirectory: &folder) && !folder.boolValue
                && !isImportManifest(path)
        }
        #expect(landed.sorted() == expected.keys.sorted())
        for (path, bytes) in expected {
            #expect(FileManager.default.contents(atPath: pictures + "/" + path) == Data(bytes), "\(path) differs")
        }
    }

    @Test func thumbnailsAskForWhatIsShownInTheOrderItIsShown() throws {
        let card = try Self.card(photos: 12)
        let camera = try CountedCamera(folder: card.path)
        let (shell, output, _) = makeInterpreter()
        shell.attach(camera.session)
        defer { camera.session.close() }
        _ = shell.run(line: "cd DCIM/100TEST")
        let catalog = camera.session.catalog
        let handle = { (name: String) in catalog.file(atPath: "DCIM/100TEST/" + name)?.id ?? 0 }
        for (line, shown) in [
            ("thumb IMG_00007.JPG IMG_00002.JPG IMG_00011.JPG", ["IMG_00007.JPG", "IMG_00002.JPG", "IMG_00011.JPG"]),
            ("thumb IMG_0000[3-5].JPG", ["IMG_00003.JPG", "IMG_00004.JPG", "IMG_00005.JPG"]),
            ("ls --thumbs IMG_0001*.JPG", ["IMG_00010.JPG", "IMG_00011.JPG", "IMG_00012.JPG"]),
        ] {
            camera.log.reset()
            _ = shell.run(line: line)
            #expect(output.errors.isEmpty, "\(line): \(output.errors)")
            #expect(camera.log.codes == shown.map { _ in .getThumb }, "\(line) cost \(camera.log.codes)")
            #expect(camera.log.requests.map { $0.parameters.first ?? 0 } == shown.map(handle), "\(line): asked out of order")
        }
    }

    @Test func openingACameraCostsTheSameWhateverTheCardHolds() throws {
        var costs: [Int: [OperationCode]] = [:]
        for count in [10, 10_000] {
            let camera = try CountedCamera(card: Self.generatedCard(files: count))
            defer { camera.session.close() }
            try camera.session.catalog.ensureLoaded()
            #expect(camera.session.catalog.contents(of: "DCIM/100TEST")?.count == count)
            costs[count] = camera.log.codes
        }
        #expect(costs[10] == costs[10_000], "10 files: \(costs[10] ?? []), 10,000 files: \(costs[10_000] ?? [])")
        #expect((costs[10_000]?.count ?? .max) <= 8, "opening cost \(costs[10_000] ?? [])")
    }

    /// A card as cameras fill it (DCF: at most 999 files a folder) costs one listing request for the whole
    /// card, never one per folder (nor per file): GetObjectPropList from the root with Depth all.
    @Test func openingACardOfManyFoldersCostsOneListingRequest() throws {
        var costs: [Int: [OperationCode]] = [:]
        for files in [1_000, 10_000] {
            let card = Card(inMemoryLabel: "BUDGET")
            for number in 0..<files {
                let folder = String(format: "DCIM/%03dMEDIA", 100 + number / 999)
                card.add(name: String(format: "DJI_%04d.JPG", number % 999 + 1), in: folder, content: .generated(length: 1 << 20))
            }
            let camera = try CountedCamera(card: card)
            defer { camera.session.close() }
            try camera.session.catalog.ensureLoaded()
            let folders = (camera.session.catalog.contents(of: "DCIM") ?? []).count
            #expect(folders == (files + 998) / 999)
            #expect(camera.session.catalog.allFiles().count == files)
            #expect(camera.session.catalog.contents(of: "DCIM/101MEDIA")?.first?.name == "DJI_0001.JPG")
            costs[folders] = camera.log.codes
        }
        #expect(costs[2] == costs[11], "2 folders: \(costs[2] ?? []), 11 folders: \(costs[11] ?? [])")
        // One store: listed without its StorageInfo (the fewest requests a PTP open and listing allow).
        #expect(costs[11] == [.openSession, .getDeviceInfo, .getStorageIDs, .getObjectPropList], "\(costs[11] ?? [])")
    }

    /// A device that answers Depth all as Depth 1 (the root's objects only) is read folder by folder: its
    /// folders look empty in the answer, and the catalog does not take that for the truth.
    @Test func aDeviceThatCutsDepthShortIsReadFolderByFolder() throws {
        let card = Card(inMemoryLabel: "BUDGET")
        for number in 1...30 {
            card.add(name: String(format: "DJI_%04d.JPG", number), in: number <= 20 ? "DCIM/100MEDIA" : "DCIM/101MEDIA", content: .generated(length: 1000))
        }
        let camera = try CountedCamera(card: card)
        defer { camera.session.close() }
        camera.log.depthAllAsOne = true
        try camera.session.catalog.ensureLoaded()
        #expect(camera.session.catalog.allFiles().count == 30, "\(camera.log.requests) \(camera.session.catalog.folderPaths) \(camera.session.catalog.incompleteBecause)")
        #expect(camera.session.catalog.contents(of: "DCIM/101MEDIA")?.count == 10)
    }
}

/// The `%Y/%m-%d` of a date in this machine's zone (as the import names folders).
struct ListingDay {
    let path: String
    init(_ date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        path = String(format: "%04d/%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }
}
