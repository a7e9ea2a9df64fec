import CommandKit
import Foundation
import Testing

@testable import Shell
@testable import TerminalKit

@Suite struct CompletionTests {
    let engine = CompletionEngine()
    let catalog = FakeCatalog([
        "": [
            CompletionEntry("DJI_0001.JPG"), CompletionEntry("DJI_0002.JPG"), CompletionEntry("DJI_0010.MP4"),
            CompletionEntry("My Photo 1.jpg"), CompletionEntry("My Photo 2.jpg"), CompletionEntry("it's.jpg"),
            CompletionEntry("Birthday Party.MP4"), CompletionEntry("100MEDIA", isFolder: true),
            CompletionEntry("Holiday 2024", isFolder: true), CompletionEntry(".hidden"),
            CompletionEntry("weird;[1]*.jpg"), CompletionEntry("#tag.jpg"),
        ],
        "100MEDIA/": [CompletionEntry("DJI_0100.JPG"), CompletionEntry("DJI_0101.JPG"), CompletionEntry("SUB", isFolder: true)],
        "Holiday 2024/": [CompletionEntry("Beach.jpg")],
        "/": [CompletionEntry("DCIM", isFolder: true)],
    ])

    private func complete(_ marked: String) -> (line: String, candidates: [String]) {
        engine.complete(marked: marked, in: catalog)
    }

    // MARK: command names

    @Test func commandNameAtTheStart() {
        #expect(complete("fet|").line == "fetch |")
        #expect(complete("  cap|").line == "  capture |")
        #expect(complete("ls; pw|").line == "ls; pwd |")
    }

    @Test func severalCommandNamesAreListed() {
        let (line, candidates) = complete("st|")
        #expect(line == "st|")
        #expect(candidates == ["state", "status", "step", "stop", "storages"])
        #expect(complete("re|").candidates == ["refresh", "resume"])
    }

    @Test func commandNameAfterTheIgnoreDash() {
        #expect(complete("-fet|").line == "-fetch |")
    }

    @Test func unknownCommandsCompleteNothing() {
        let result = engine.complete("frobnicate DJ", cursor: 13, context: catalog)
        #expect(result.isEmpty)
    }

    // MARK: remote names

    @Test func uniqueFileCompletesWithASpace() {
        #expect(complete("fetch DJI_0010|").line == "fetch DJI_0010.MP4 |")
        #expect(complete("select Bir|").line == "select Birthday\\ Party.MP4 |")
    }

    @Test func severalFilesInsertTheCommonPrefixAndList() {
        let (line, candidates) = complete("fetch DJ|")
        #expect(line == "fetch DJI_00|")
        #expect(candidates == ["DJI_0001.JPG", "DJI_0002.JPG", "DJI_0010.MP4"])
    }

    @Test func spacesAndSpecialsAreEscaped() {
        #expect(complete("info My|").line == "info My\\ Photo\\ |")
        #expect(complete("info My\\ Photo\\ 2|").line == "info My\\ Photo\\ 2.jpg |")
        #expect(complete("info it|").line == "info it\\'s.jpg |")
        #expect(complete("info weird|").line == "info weird\\;\\[1]\\*.jpg |")
        #expect(complete("info \\#|").line == "info \\#tag.jpg |")
    }

    @Test func completedNamesTokenizeBackToTheName() throws {
        for name in ["weird;[1]*.jpg", "it's.jpg", "My Photo 1.jpg", "#tag.jpg"] {
            let prefix = String(name.dropLast(4))
            let typed = "fetch " + ShellQuoting.escape(prefix) + "|"
            let (line, _) = complete(typed)
            let words = try Tokenizer.words(in: line.replacingOccurrences(of: "|", with: ""))
            #expect(words.last?.text == name, "\(name)")
            #expect(words.last?.isGlob == false)
        }
    }

    @Test func insideAnOpenDoubleQuote() {
        #expect(complete("fetch \"My Photo 1|").line == "fetch \"My Photo 1.jpg\" |")
        #expect(complete("fetch \"My|").line == "fetch \"My Photo |")
        #expect(complete("fetch \"Hol|").line == "fetch \"Holiday 2024/|")
    }

    @Test func insideAnOpenSingleQuote() {
        #expect(complete("fetch 'it|").line == "fetch 'it'\\''s.jpg' |")
        #expect(complete("fetch 'Birth|").line == "fetch 'Birthday Party.MP4' |")
    }

    @Test func quoteOpenedInTheMiddleOfAPath() {
        #expect(complete("fetch \"Holiday 2024\"/Be|").line == "fetch \"Holiday 2024\"/Beach.jpg |")
    }

    @Test func uniqueFolderAppendsASlashAndNoSpace() {
        #expect(complete("fetch 100|").line == "fetch 100MEDIA/|")
        #expect(complete("fetch Hol|").line == "fetch Holiday\\ 2024/|")
    }

    @Test func pathsCompleteWithinTheirFolder() {
        let (line, candidates) = complete("fetch 100MEDIA/|")
        #expect(line == "fetch 100MEDIA/|")
        #expect(candidates == ["DJI_0100.JPG", "DJI_0101.JPG", "SUB/"])
        #expect(complete("fetch 100MEDIA/S|").line == "fetch 100MEDIA/SUB/|")
        #expect(complete("rm Holiday\\ 2024/B|").line == "rm Holiday\\ 2024/Beach.jpg |")
        #expect(complete("cd /D|").line == "cd /DCIM/|")
    }

    @Test func cdOffersFoldersOnly() {
        #expect(complete("cd |").candidates == ["100MEDIA/", "Holiday 2024/"])
        #expect(complete("cd D|").line == "cd D|")
    }

    @Test func hiddenNamesOnlyWhenAskedFor() {
        #expect(!complete("fetch |").candidates.contains(".hidden"))
        #expect(complete("fetch .h|").line == "fetch .hidden |")
    }

    @Test func caseDiffersWhenNothingElseMatches() {
        #expect(complete("fetch dji_0010|").line == "fetch DJI_0010.MP4 |")
        #expect(complete("fetch dj|").line == "fetch DJI_00|")
        #expect(complete("fetch \"my photo 1|").line == "fetch \"My Photo 1.jpg\" |")
    }

    @Test func everyRemoteCommandCompletesRemoteNames() {
        for command in ["select", "info", "thumb", "fetch", "get", "delete", "rm", "play", "ls"] {
            #expect(complete("\(command) Bir|").line == "\(command) Birthday\\ Party.MP4 |", "\(command)")
        }
        #expect(complete("seek Bir|").line == "seek Bir|")
        #expect(complete("pwd Bir|").line == "pwd Bir|")
    }

    @Test func laterArgumentsAndOptionsBetween() {
        #expect(complete("fetch -c DJI_0001.JPG --new Bir|").line == "fetch -c DJI_0001.JPG --new Birthday\\ Party.MP4 |")
        #expect(complete("select DJI_0001.JPG Bir|").line == "select DJI_0001.JPG Bir|")
    }

    @Test func cursorInTheMiddleCompletesThePrefix() {
        #expect(complete("fetch Bir| -c").line == "fetch Birthday\\ Party.MP4 | -c")
    }

    @Test func aTrailingBackslashIsRewrittenProperly() throws {
        let (line, _) = complete("fetch My\\|")
        #expect(line == "fetch My\\ Photo\\ |")
    }

    @Test func commentsAndClosedWordsCompleteNothing() {
        #expect(engine.complete("ls # fet", cursor: 8, context: catalog).isEmpty)
    }

    // MARK: options, settings, URLs, choices

    @Test func optionsPerCommand() {
        #expect(complete("ls -|").candidates == ["--json", "--kind", "--larger", "--new", "--since", "--thumbs", "--until", "-1", "-R", "-S", "-a", "-d", "-h", "-l", "-n", "-r", "-t"])
        #expect(complete("fetch --d|").line == "fetch --delete-after |")
        #expect(complete("fetch --|").candidates == ["--continue", "--delete-after", "--force", "--new", "--output", "--recursive"])
        #expect(complete("rm --f|").line == "rm --force |")
        #expect(complete("fetch -- --|").candidates.isEmpty)
        #expect(complete("seek -|").candidates == ["--frame", "--key"])
    }

    @Test func settingsForSet() {
        #expect(complete("set err|").line == "set errexit |")
        #expect(complete("set |").candidates == ["errexit", "overwrite", "progress", "timeout"])
        #expect(complete("set errexit o|").line == "set errexit o|")
    }

    @Test func schemesForOpen() {
        #expect(complete("open pt|").line == "open ptpip:|")
        #expect(complete("open |").candidates == ["dir:", "fuji:", "ptpip:", "sim:", "usb:"])
    }

    @Test func commandNamesForHelpAndChoicesForMode() {
        #expect(complete("help fet|").line == "help fetch |")
        #expect(complete("mode sh|").line == "mode shoot |")
    }

    // MARK: local paths

    @Test func localPathsForOutputLcdAndSource() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("msh-completion-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: base.appendingPathComponent("imports/2024 trip"), withIntermediateDirectories: true)
        try Data().write(to: base.appendingPathComponent("import.msh"))
        try Data().write(to: base.appendingPathComponent("imports/notes.txt"))
        let local = FakeCatalog(["": [CompletionEntry("DJI_0001.JPG")]], localBase: base.path)
        func complete(_ marked: String) -> (line: String, candidates: [String]) {
            engine.complete(marked: marked, in: local)
        }

        #expect(complete("fetch -o im|").line == "fetch -o imports/|")
        #expect(complete("fetch -o imports/|").line == "fetch -o imports/2024\\ trip/|")
        #expect(complete("fetch --output imp|").line == "fetch --output imports/|")
        #expect(complete("fetch --output=imp|").line == "fetch --output=imports/|")
        #expect(complete("fetch -co im|").line == "fetch -co imports/|")
        #expect(complete("fetch -o imports/ DJ|").line == "fetch -o imports/ DJI_0001.JPG |")
        #expect(complete("lcd imports/|").line == "lcd imports/2024\\ trip/|")
        let (line, candidates) = complete("source im|")
        #expect(line == "source import|")
        #expect(candidates == ["import.msh", "imports/"])
        #expect(complete("source \(base.path)/import.|").line == "source \(base.path)/import.msh |")
        #expect(complete("open dir:imp|").line == "open dir:imports/|")
    }

    // MARK: results

    @Test func resultsReplaceOnlyBeforeTheCursor() {
        let result = engine.complete("fetch dji_0010", cursor: 14, context: catalog)
        #expect(result.range == 6..<14)
        #expect(result.replacement == "DJI_0010.MP4 ")
        let appended = engine.complete("fetch DJI_0010", cursor: 14, context: catalog)
        #expect(appended.range == 14..<14)
        #expect(appended.replacement == ".MP4 ")
    }

    @Test func theCatalogIsListedOncePerFolder() {
        let catalog = FakeCatalog(["": [CompletionEntry("a.jpg"), CompletionEntry("b.jpg")]])
        for _ in 0..<5 { _ = engine.complete("fetch |", cursor: 6, context: catalog) }
        #expect(catalog.remoteListings == 1)
    }

    @Test func hostileCursorsAndLinesNeverCrash() {
        let lines = ["", "\"", "'", "\\", "fetch \"", "fetch é", "fetch \u{1B}", ";;;", "- ", "fetch --output=", "-"]
        for line in lines {
            for cursor in [-5, 0, 1, 2, 3, line.utf8.count, 1000] {
                _ = engine.complete(line, cursor: cursor, context: catalog)
            }
        }
        // A cursor inside a multi-byte character moves back to its start.
        #expect(engine.complete("fetch é", cursor: 7, context: catalog).range == 6..<6)
    }

    @Test func candidateNamesAreShownSafely() {
        let catalog = FakeCatalog(["": [CompletionEntry("a\u{1B}[31m.jpg"), CompletionEntry("a2.jpg")]])
        #expect(engine.complete(marked: "fetch a|", in: catalog).candidates == ["a\\x1b[31m.jpg", "a2.jpg"])
    }
}
