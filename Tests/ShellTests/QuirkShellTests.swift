import Foundation
import MediaManager
import PTP
import TestSupport
import Testing
import VirtualCamera

@testable import Shell

/// The whole shell against each quirk of the virtual camera: what a user types works on a camera that
/// behaves like that, and the shell never sends what the camera did not list.
@Suite struct QuirkShellTests {
    let card: TemporaryFolder
    let downloads: TemporaryFolder

    init() throws {
        card = try makeCardFolder()
        downloads = try TemporaryFolder("msh-quirk-dl")
    }

    static let everyFile = [
        "DCIM/100MEDIA/Birthday Party.MP4", "DCIM/100MEDIA/DJI_0001.JPG", "DCIM/100MEDIA/DJI_0002.JPG",
        "DCIM/100MEDIA/DJI_0003.MP4", "DCIM/100MEDIA/DJI_0003.SRT", "DCIM/100MEDIA/My Clip 1.MP4",
        "DCIM/100MEDIA/My Clip 2.MP4", "DCIM/101MEDIA/IMG_0100.JPG", "DCIM/101MEDIA/IMG_0101.JPG",
    ]

    /// Quirks that keep every name as it is on the card: the whole card must list and arrive intact.
    static let faithful: [String] = [
        "proplist-ignores-depth", "proplist-lists-self", "no-proplist", "lazy-handles", "handles-list-self",
        "generic-format", "zero-dimensions", "no-thumbs", "no-thumb-info", "no-partial", "strict-transactions",
        "no-deviceinfo-outside-session", "sticky-session", "no-all-storages", "no-events", "capture-new-folder",
        "ok-unknown-ops", "umtp", "debian-umtp", "vcamera", "no-proplist,handles-list-self",
        "objectinfo-size64", "objectinfo-size64,no-proplist", "storage-id-not-a-store",
        "storage-id-not-a-store,no-proplist", "parent-not-a-folder", "parent-not-a-folder,no-proplist",
    ]

    @Test(arguments: faithful)
    func theWholeCardListsAndArrivesIntact(_ names: String) throws {
        let (shell, output, camera) = try quirkyShell(try Quirks(parsing: names), card: card, downloads: downloads)
        defer { camera.session.close() }
        #expect(shell.run(line: "ls /DCIM/100MEDIA /DCIM/101MEDIA") == .success, "\(output.errors)")
        let listed = Set(output.lines)
        for path in Self.everyFile {
            #expect(listed.contains("/" + path), "\(names): \(path) not in \(output.lines)")
        }
        output.reset()
        #expect(shell.run(line: "state") == .success)
        #expect(output.standardOutput.contains("up-to-date"), "\(names): \(output.standardOutput)")
        #expect(shell.run(line: "fetch /DCIM/100MEDIA/* /DCIM/101MEDIA/*") == .success, "\(names): \(output.errors)")
        for path in Self.everyFile {
            let name = String(path.split(separator: "/").last!)
            #expect(downloads.read(name) == card.read(path), "\(names): \(name) differs")
        }
        // Nothing the camera did not list in DeviceInfo was ever sent, and the listing was bounded.
        let offered = Set(camera.camera.operations)
        for code in camera.transport.operations { #expect(offered.contains(code), "\(names): sent \(code)") }
        #expect(camera.transport.operations.count < 200, "\(names): \(camera.transport.operations.count) requests")
    }

    private func shell(_ quirks: Quirks, capture: Bool = false) throws -> (Interpreter, CapturedOutput, QuirkyCamera) {
        try quirkyShell(quirks, card: card, downloads: downloads, capture: capture)
    }

    @Test func duplicateNamesAreAllListedAndEachArrivesUnderItsOwnName() throws {
        let (shell, output, camera) = try shell([.duplicateNames])
        defer { camera.session.close() }
        #expect(shell.run(line: "cd /DCIM/100MEDIA; ls") == .success, "\(output.errors)")
        #expect(output.lines == [
            "Birthday Party (2).MP4", "Birthday Party.MP4", "DJI_0002.JPG", "DJI_0003 (2).SRT", "DJI_0003.SRT",
            "My Clip 2.MP4", "dji_0002.jpg",
        ])
        output.reset()
        #expect(shell.run(line: "fetch *") == .success, "\(output.errors)")
        let arrived = try FileManager.default.contentsOfDirectory(atPath: downloads.path).sorted()
        #expect(arrived.count == 7, "\(arrived)")
        var contents = Set<[UInt8]>()
        for name in arrived { contents.insert(try #require(downloads.read(name))) }
        var originals = Set<[UInt8]>()
        for path in Self.everyFile where path.hasPrefix("DCIM/100MEDIA") { originals.insert(try #require(card.read(path))) }
        #expect(contents == originals, "each object arrived once, byte for byte")
        #expect(output.lines.contains { $0.contains("the camera calls it Birthday Party.MP4") }, "\(output.lines)")
    }

    @Test(arguments: ["truncated-objectinfo", "truncated-objectinfo,no-proplist"])
    func aTruncatedObjectInfoCostsThatObjectOnly(_ names: String) throws {
        let (shell, output, camera) = try shell(try Quirks(parsing: names))
        defer { camera.session.close() }
        #expect(shell.run(line: "ls /DCIM/100MEDIA") == .success, "\(output.errors)")
        #expect(output.lines.count == 6 && !output.lines.contains("DJI_0001.JPG"), "\(output.lines)")
        let handle = try #require(camera.camera.card.handle(forPath: "DCIM/100MEDIA/DJI_0001.JPG"))
        // The second file of each folder: DJI_0001.JPG here, IMG_0101.JPG in 101MEDIA.
        let warnings = output.errors.filter { $0.hasPrefix("warning: ") }
        #expect(warnings.count == 2, "\(output.errors)")
        #expect(warnings.contains { $0.contains("object 0x\(hex8(handle)) in /DCIM/100MEDIA/") }, "\(warnings)")
        #expect(output.errors.count == 2)
        output.reset()
        #expect(shell.run(line: "state") == .success)
        #expect(output.standardOutput.hasPrefix("incomplete: 7 files in 4 folders; left out"), "\(output.standardOutput)")
        #expect(output.standardOutput.contains("object 0x\(hex8(handle))"))
        #expect(shell.run(line: "fetch /DCIM/101MEDIA/*") == .success, "\(output.errors)")
        #expect(downloads.read("IMG_0100.JPG") == card.read("DCIM/101MEDIA/IMG_0100.JPG"))
        output.reset()
        #expect(shell.run(line: "ls") == .success)
        #expect(output.errors.isEmpty, "a warning is given once: \(output.errors)")
    }

    @Test(arguments: ["invalid-utf16", "invalid-utf16,no-proplist"])
    func aNameThatIsNotUTF16IsRepairedAndStillFetched(_ names: String) throws {
        let (shell, output, camera) = try shell(try Quirks(parsing: names))
        defer { camera.session.close() }
        #expect(shell.run(line: "cd /DCIM/100MEDIA; ls") == .success, "\(output.errors)")
        #expect(output.lines.contains("DJI_0002\u{FFFD}.JPG"), "\(output.lines)")
        #expect(output.lines.count == 7)
        #expect(output.errors.count == 1 && output.errors[0].contains("not valid UTF-16"), "\(output.errors)")
        #expect(shell.run(line: "fetch DJI_0002*") == .success, "\(output.errors)")
        #expect(downloads.read("DJI_0002\u{FFFD}.JPG") == card.read("DCIM/100MEDIA/DJI_0002.JPG"))
    }

    @Test func withoutPartialReadsABigFileComesWholeAndAResumeStartsAgainAndSaysSo() throws {
        try card.write("DCIM/100MEDIA/BIG.BIN", patternBytes(9_000_000, seed: 11))
        let (shell, output, camera) = try shell([.noPartial])
        defer { camera.session.close() }
        try downloads.write("BIG.BIN.part", [UInt8](repeating: 7, count: 1000))
        #expect(shell.run(line: "set limit-rate 64M; fetch /DCIM/100MEDIA/BIG.BIN") == .success, "\(output.errors)")
        #expect(downloads.read("BIG.BIN") == card.read("DCIM/100MEDIA/BIG.BIN"))
        #expect(output.lines.last?.contains("started again from 0") == true, "\(output.lines)")
        #expect(camera.transport.count(.getObject) == 1)
        #expect(camera.transport.count(.getPartialObject) == 0 && camera.transport.count(.getPartialObject64) == 0)
        // A failed attempt leaves no empty .part.
        try FileManager.default.removeItem(atPath: card.path + "/DCIM/100MEDIA/DJI_0001.JPG")
        #expect(shell.run(line: "fetch /DCIM/100MEDIA/DJI_0001.JPG") == .failure)
        #expect(!downloads.exists("DJI_0001.JPG.part") && !downloads.exists("DJI_0001.JPG"))
    }

    @Test(arguments: ["no-thumbs", "no-thumb-info", "no-thumb-info,no-proplist"])
    func thumbnailsWithoutGetThumbOrWhereObjectInfoSaysNone(_ names: String) throws {
        // Real photos, whose EXIF thumbnails are the fallback.
        let photo = try #require(DemoMedia.file("photo_landscape.jpg"))
        for name in ["DJI_0001.JPG", "DJI_0002.JPG"] {
            try card.write("DCIM/100MEDIA/" + name, [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo))))
        }
        let (shell, output, camera) = try shell(try Quirks(parsing: names))
        defer { camera.session.close() }
        #expect(shell.run(line: "cd /DCIM/100MEDIA; ls --thumbs") == .success, "\(names): \(output.errors) \(output.lines)")
        #expect(!output.errors.contains { $0.hasPrefix("error") }, "\(output.errors)")
        if names.contains("no-proplist") || names == "no-thumbs" {
            #expect(camera.transport.count(.getThumb) == 0, "\(names): GetThumb sent")
        }
    }

    @Test func aSessionLeftOpenByAnEarlierConnectionIsUsed() throws {
        let camera = VirtualCamera(card: try Card(folder: card.path), quirks: [.stickySession, .noDeviceInfoOutsideSession])
        func connect() throws -> (MediaSession, InMemoryResponder) {
            let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1 << 20, timeout: 10)
            Thread { camera.serve(responder, peer: "test") }.start()
            let device = try Camera(transport: initiator, location: "sim:") { responder.close() }
            return (MediaSession(camera: device, url: .simulator(path: card.path)), responder)
        }
        let (first, firstResponder) = try connect()
        try first.catalog.ensureLoaded()
        firstResponder.close()  // the cable is pulled: no CloseSession
        let (second, _) = try connect()
        defer { second.close() }
        let (shell, output, _) = makeInterpreter()
        shell.attach(second)
        #expect(shell.run(line: "ls /DCIM/101MEDIA") == .success, "\(output.errors)")
        #expect(output.lines == ["IMG_0100.JPG", "IMG_0101.JPG"])
    }

    @Test(arguments: ["no-events", "no-events,capture-new-folder"])
    func captureOnACameraThatSendsNoEventsFindsTheNewFileByListing(_ names: String) throws {
        let (shell, output, camera) = try shell(try Quirks(parsing: names), capture: true)
        defer { camera.session.close() }
        #expect(shell.run(line: "set timeout 1; capture") == .success, "\(output.errors)")
        let folder = names.contains("new-folder") ? "102MSHOT" : "101MEDIA"
        #expect(output.lines.contains { $0.hasPrefix("captured /DCIM/\(folder)/IMG_0102.JPG (") }, "\(output.lines)")
        #expect(output.lines.contains { $0.contains("the camera sent no events") })
        output.reset()
        #expect(shell.run(line: "ls /DCIM/\(folder)") == .success)
        #expect(output.lines.contains("IMG_0102.JPG"))
    }

    /// Also where every object's StorageID is no store (Canon EOS over PTP/IP: the new folder is listed on
    /// the store it is in, not the one it names), and where ObjectInfo has a 64-bit size.
    @Test(arguments: ["capture-new-folder", "capture-new-folder,storage-id-not-a-store", "capture-new-folder,objectinfo-size64"])
    func captureIntoANewFolderReportsTheFileNotTheFolder(_ names: String) throws {
        let (shell, output, camera) = try shell(try Quirks(parsing: names), capture: true)
        defer { camera.session.close() }
        #expect(shell.run(line: "capture") == .success, "\(output.errors)")
        #expect(output.lines.count == 1 && output.lines[0].hasPrefix("captured /DCIM/102MSHOT/IMG_0102.JPG ("), "\(output.lines)")
        output.reset()
        #expect(shell.run(line: "ls /DCIM/102MSHOT; state") == .success)
        #expect(output.lines.first == "IMG_0102.JPG")
        #expect(output.lines.last?.hasPrefix("up-to-date: 10 files") == true, "\(output.lines)")
        #expect(shell.run(line: "fetch /DCIM/102MSHOT/IMG_0102.JPG") == .success, "\(output.errors)")
        #expect(downloads.read("IMG_0102.JPG") == card.read("DCIM/102MSHOT/IMG_0102.JPG"))
    }

    /// A card whose objects all come without a name: every command that needs the list says what was seen
    /// and fails (a script stops there with status 1); `state` and `summary` say the list is unreadable,
    /// never "0 files, up-to-date" nor a folder named "unnamed".
    @Test(arguments: ["nameless-objects", "nameless-objects,no-proplist"])
    func aCardWhoseObjectsHaveNoNamesIsAnErrorNotAnEmptyCard(_ names: String) throws {
        let (shell, output, camera) = try shell(try Quirks(parsing: names))
        defer { camera.session.close() }
        for line in ["ls", "ls -R", "fetch *", "cd DCIM", "refresh"] {
            output.reset()
            #expect(shell.run(line: line) == .failure, "\(line)")
            #expect(output.errors.count == 1, "\(line): \(output.errors)")
            #expect(output.errors.first?.contains("the camera named 12 objects but none had a name") == true, "\(output.errors)")
            #expect(!output.standardOutput.contains("unnamed"), "\(output.standardOutput)")
        }
        output.reset()
        #expect(shell.run(line: "state; summary") == .success)
        #expect(output.lines.first?.hasPrefix("unreadable: the camera named 12 objects but none had a name") == true, "\(output.lines)")
        #expect(output.lines.contains { $0.hasPrefix("files:") && $0.contains("none readable") }, "\(output.lines)")
        #expect(!output.standardOutput.contains("up-to-date"))
    }

    /// A slot without a card: its store is listed without asking for its StorageInfo first (a round trip
    /// fewer at every open), and its StoreNotAvailable is an empty card, not a failure nor a gap.
    @Test func aSlotWithoutACardListsAsAnEmptyCard() throws {
        let (shell, output, camera) = try shell([.noCard])
        defer { camera.session.close() }
        #expect(shell.run(line: "ls") == .success, "\(output.errors)")
        #expect(output.lines.isEmpty, "\(output.lines)")
        #expect(shell.run(line: "state") == .success)
        #expect(output.standardOutput.contains("up-to-date: 0 files"), "\(output.standardOutput)")
        #expect(camera.session.catalog.incompleteBecause.isEmpty, "\(camera.session.catalog.incompleteBecause)")
        #expect(!camera.transport.operations.contains(.getStorageInfo), "\(camera.transport.operations)")
        #expect(camera.transport.operations.contains(.getObjectPropList), "\(camera.transport.operations)")
    }

    /// The camera answers an error for a photo (`unreadable-jpeg`), or the link drops as it is asked for
    /// (`drop-at-jpeg`), while `import` reads its first bytes for its date: a line names the photo, nothing
    /// of it is written; after an error the import goes on, after a drop it says the camera went away and
    /// stops there, rather than fail every file left. Either way the exit status says something failed.
    @Test(arguments: ["unreadable-jpeg", "drop-at-jpeg"])
    func importNamesAPhotoWhoseFirstBytesCannotBeRead(_ quirk: String) throws {
        let (shell, output, camera) = try shell(try Quirks(parsing: quirk))
        defer { camera.session.close() }
        shell.environment["XDG_DATA_HOME"] = downloads.path + "/data"
        let pictures = downloads.path + "/Pictures"
        #expect(shell.run(line: "import --to '\(pictures)'") == .failure)
        let named = output.errors.filter { $0.contains("none of its") }
        let unreadable = quirk == "drop-at-jpeg" ? ["DJI_0001.JPG"] : ["DJI_0001.JPG", "IMG_0100.JPG"]
        #expect(named.count == unreadable.count, "\(output.errors)")
        for (line, name) in zip(named, unreadable) { #expect(line.hasPrefix("error: import: \(name): "), "\(line)") }
        #expect(output.errors.contains { $0.contains("the camera went away") } == (quirk == "drop-at-jpeg"), "\(output.errors)")
        let home = Set(FileManager.default.subpaths(atPath: pictures) ?? [])
        for name in unreadable { #expect(!home.contains(name) && !home.contains(name + ".part"), "\(home.sorted())") }
        if quirk == "unreadable-jpeg" {
            #expect(home.contains("DJI_0002.JPG") && home.contains("IMG_0101.JPG"), "\(home.sorted())")
        }
    }
}

/// A camera that lists settings it then refuses to describe (vcam's Fujifilm personas over USB: 57 such
/// codes made `props` fail): they are left out with one line, and `props` succeeds with the others.
@Suite struct UndescribedPropertyTests {
    @Test func propsLeavesOutWhatTheCameraWillNotDescribe() throws {
        let card = try makeCardFolder()
        let downloads = try TemporaryFolder("msh-quirk-dl")
        let (shell, output, camera) = try quirkyShell(try Quirks(parsing: "undescribed-props"), card: card, downloads: downloads)
        defer { camera.session.close() }
        #expect(shell.run(line: "props") == .success, "\(output.errors)")
        #expect(output.errors.count == 1, "\(output.errors)")
        let note = try #require(output.errors.first)
        #expect(note.hasPrefix("props: 14 settings the camera lists but does not describe (it answers that it does not support them), left out: "))
        #expect(note.hasSuffix(", …"))
        // The settings it does describe are all there.
        #expect(output.standardOutput.contains("battery"), "\(output.standardOutput)")

        output.standardOutput = ""
        output.errors = []
        #expect(shell.run(line: "props --json") == .success)
        let json = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [Any]
        #expect((json?.count ?? 0) > 0)
        #expect(output.errors.count == 1)
    }
}
