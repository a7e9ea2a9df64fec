import Foundation
import MediaManager
import POSIX
import TestSupport
import Testing

@testable import Shell

/// `info` says a file is downloaded only for a local copy proven to be it, by the rule `fetch` follows
/// (same size and a modification time within 2 s of its capture time, or the checksum the import ledger
/// recorded); a different file of its name is said to be one (issue 41, item 2).
@Suite struct InfoDownloadedTests {
    let card: TemporaryFolder
    let downloads: TemporaryFolder
    let home: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput
    static let taken = Date(timeIntervalSince1970: 1_717_243_200)  // 2024-06-01 12:00 UTC
    static let otherDay = Date(timeIntervalSince1970: 1_000_000_000)

    init() throws {
        card = try makeCardFolder(bigFileSize: 50_000)
        for relative in try FileManager.default.subpathsOfDirectory(atPath: card.path) {
            try FileManager.default.setAttributes([.modificationDate: Self.taken], ofItemAtPath: card.path + "/" + relative)
        }
        downloads = try TemporaryFolder("msh-info-dl")
        home = try TemporaryFolder("msh-info-home")
        var settings = Settings()
        settings.downloadFolder = downloads.path
        (interpreter, output, _) = makeInterpreter(settings: settings)
        interpreter.environment["XDG_DATA_HOME"] = home.path + "/data"
        try interpreter.open(.folder(path: card.path))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
    }

    private func run(_ line: String) -> LineStatus {
        output.reset()
        return interpreter.run(line: line)
    }

    /// The `downloaded:` row of the last `info`, its columns' padding taken out.
    private var downloadedRow: String? {
        output.lines.first { $0.hasPrefix("downloaded:") }.map {
            "downloaded: " + $0.dropFirst("downloaded:".count).trimmingCharacters(in: .whitespaces)
        }
    }

    private func infoJSON(_ name: String) throws -> [String: Any] {
        #expect(run("info --json \(name)") == .success, "\(output.errors)")
        return try #require(JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
    }

    private func setModified(_ path: String, _ date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    @Test func aDifferentFileOfTheNameIsNotTheDownload() throws {
        // Another file, of another size.
        try downloads.write("DJI_0001.JPG", patternBytes(7_000, seed: 99))
        #expect(run("info DJI_0001.JPG") == .success, "\(output.errors)")
        #expect(downloadedRow == "downloaded: no; a different file of this name is in \(downloads.path)", "\(output.lines)")
        var object = try infoJSON("DJI_0001.JPG")
        #expect(object["downloaded"] == nil, "not the camera's size: \(object)")
        #expect(object["differentLocalFile"] as? String == downloads.path + "/DJI_0001.JPG", "\(object)")

        // Of the same size, but not of its time (and no ledger knows it).
        try downloads.write("DJI_0002.JPG", patternBytes(21_000, seed: 98))
        try setModified(downloads.path("DJI_0002.JPG"), Self.otherDay)
        #expect(run("info DJI_0002.JPG") == .success)
        #expect(downloadedRow == "downloaded: no; a different file of this name is in \(downloads.path)", "\(output.lines)")

        // fetch keeps the other file and writes this one beside it, where info then finds it.
        #expect(run("fetch DJI_0001.JPG") == .success, "\(output.errors)")
        #expect(downloads.read("DJI_0001 (2).JPG") == card.read("DCIM/100MEDIA/DJI_0001.JPG"))
        #expect(run("info DJI_0001.JPG") == .success)
        #expect(downloadedRow == "downloaded: yes, as DJI_0001 (2).JPG in \(downloads.path)", "\(output.lines)")
        object = try infoJSON("DJI_0001.JPG")
        #expect(object["downloaded"] as? Int == 20_000, "\(object)")
        #expect(object["localFile"] as? String == downloads.path + "/DJI_0001 (2).JPG", "\(object)")
        #expect(object["differentLocalFile"] == nil, "\(object)")
    }

    @Test func aFetchedCopyIsTheDownload() throws {
        #expect(run("fetch DJI_0001.JPG") == .success, "\(output.errors)")
        #expect(run("info DJI_0001.JPG") == .success)
        #expect(downloadedRow == "downloaded: yes, in \(downloads.path)", "\(output.lines)")
        let object = try infoJSON("DJI_0001.JPG")
        #expect(object["downloaded"] as? Int == 20_000)
        #expect(object["localFile"] as? String == downloads.path + "/DJI_0001.JPG", "\(object)")
        // Nothing at its name: no row.
        #expect(run("info DJI_0002.JPG") == .success)
        #expect(downloadedRow == nil, "\(output.lines)")
    }

    @Test func theLedgersChecksumProvesACopyWhoseTimeChanged() throws {
        #expect(run("import --to \(downloads.path)/%f DJI_0001.JPG") == .success, "\(output.errors)")
        try setModified(downloads.path("DJI_0001.JPG"), Self.otherDay)
        #expect(run("info DJI_0001.JPG") == .success)
        #expect(downloadedRow == "downloaded: yes, in \(downloads.path)", "\(output.lines)")
        // The same size and time, other bytes: not it.
        var bytes = try #require(downloads.read("DJI_0001.JPG"))
        bytes[0] ^= 0xFF
        try downloads.write("DJI_0001.JPG", bytes)
        try setModified(downloads.path("DJI_0001.JPG"), Self.otherDay)
        #expect(run("info DJI_0001.JPG") == .success)
        #expect(downloadedRow == "downloaded: no; a different file of this name is in \(downloads.path)", "\(output.lines)")
    }
}
