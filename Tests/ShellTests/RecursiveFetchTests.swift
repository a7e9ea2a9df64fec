import CommandKit
import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// `fetch -r FOLDER` and `mirror FOLDER` bring a folder with everything below it, keeping the tree under
/// the destination; `fetch FOLDER` says how (the hint it gave led to a second error); `help import` shows
/// what its "below" promises.
@Suite struct RecursiveFetchTests {
    let card: TemporaryFolder
    let downloads: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card = try makeCardFolder()
        downloads = try TemporaryFolder("msh-tree")
        var settings = Settings()
        settings.downloadFolder = downloads.path
        (interpreter, output, _) = makeInterpreter(settings: settings)
        try interpreter.open(.folder(path: card.path))
    }

    private var cardFiles: [String] {
        (FileManager.default.subpaths(atPath: card.path + "/DCIM") ?? []).filter { $0.contains(".") }.sorted()
    }

    @Test func aFolderIsFetchedWithItsTree() throws {
        #expect(interpreter.run(line: "fetch DCIM") == .failure)
        #expect(output.errors.last == "error: fetch: DCIM is a folder: 'fetch -r DCIM' takes it with everything below it")
        #expect(interpreter.run(line: "fetch DCIM/*") == .failure)
        #expect(output.errors.last?.hasSuffix("; 'fetch -r' takes folders with everything below them") == true)

        #expect(interpreter.run(line: "fetch -r -o \(downloads.path)/all DCIM") == .success, "\(output.errors)")
        let fetched = (FileManager.default.subpaths(atPath: downloads.path + "/all/DCIM") ?? []).filter { $0.contains(".") }.sorted()
        #expect(fetched == cardFiles)
        for path in cardFiles {
            #expect(downloads.read("all/DCIM/" + path) == card.read("DCIM/" + path), "\(path)")
        }
        #expect(output.lines.last?.hasPrefix("fetch: 9 fetched, 0 skipped") == true, "\(output.lines)")
        // Again: everything is already there.
        #expect(interpreter.run(line: "fetch -r -o \(downloads.path)/all DCIM") == .success)
        #expect(output.lines.last?.hasPrefix("fetch: 0 fetched, 9 skipped") == true, "\(output.lines)")
    }

    @Test func mirrorIsFetchRAndWorksAsAJob() throws {
        #expect(interpreter.run(line: "cd DCIM; mirror 101MEDIA") == .success, "\(output.errors)")
        #expect(downloads.read("101MEDIA/IMG_0100.JPG") == card.read("DCIM/101MEDIA/IMG_0100.JPG"))
        #expect(downloads.read("101MEDIA/IMG_0101.JPG") == card.read("DCIM/101MEDIA/IMG_0101.JPG"))
        #expect(interpreter.run(line: "cd 100MEDIA; fetch -r -o \(downloads.path)/job &") == .success, "\(output.errors)")
        #expect(interpreter.run(line: "wait") == .success, "\(output.errors)")
        #expect(downloads.read("job/100MEDIA/DJI_0003.SRT") == card.read("DCIM/100MEDIA/DJI_0003.SRT"))
        #expect(downloads.read("job/100MEDIA/My Clip 2.MP4") == card.read("DCIM/100MEDIA/My Clip 2.MP4"))
    }

    @Test func helpImportShowsTheTokensItPointsTo() throws {
        let help = try interpreter.table.help(forName: "import", width: 100)
        #expect(!help.contains("(see below)"))
        let below = try #require(help.range(of: "a pattern of the tokens below")).upperBound
        #expect(help[below...].contains("%Y %m %d"))
    }
}
