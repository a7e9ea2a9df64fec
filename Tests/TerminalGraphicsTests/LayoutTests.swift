import Foundation
import Imaging
import Testing

@testable import TerminalGraphics

@Suite struct TerminalTextTests {
    @Test func controlAndInvisibleCharactersBecomeQuestionMarks() {
        #expect(TerminalText.sanitize("a\u{1B}[31mb") == "a?[31mb")
        #expect(TerminalText.sanitize("bell\u{07}\r\n\t") == "bell????")
        #expect(TerminalText.sanitize("c1\u{9B}2J") == "c1?2J")
        #expect(TerminalText.sanitize("evil\u{202E}GPJ.exe") == "evil?GPJ.exe")
        #expect(TerminalText.sanitize("zero\u{200B}width\u{2028}") == "zero?width?")
        #expect(TerminalText.sanitize("DJI_0001 été 日本.JPG") == "DJI_0001 été 日本.JPG")
    }

    @Test func widthsCountWideCharactersTwice() {
        #expect(TerminalText.displayWidth("DSC01234.JPG") == 12)
        #expect(TerminalText.displayWidth("日本") == 4)
        #expect(TerminalText.displayWidth("📷x") == 3)
        #expect(TerminalText.displayWidth("e\u{301}") == 1)
    }

    @Test(arguments: [
        ("DSC01234.JPG", 20, "DSC01234.JPG"),
        ("DJI_20240501_101203_0001.JPG", 20, "DJI_20240501_10….JPG"),
        ("IMG_0001.JPG", 8, "IMG….JPG"),
        ("abcdef", 4, "abc…"),
        ("a.jpg", 4, "a.j…"),
        ("日本語の写真.JPG", 9, "日本….JPG"),
        ("日本語", 5, "日本…"),
        ("abcdef", 1, "…"),
        ("abcdef", 0, ""),
        (".hidden_long_name", 8, ".hidden…"),
    ])
    func truncation(name: String, width: Int, expected: String) {
        let cut = TerminalText.truncate(name, toWidth: width)
        #expect(cut == expected)
        #expect(TerminalText.displayWidth(cut) <= max(width, 0))
    }
}

@Suite struct ContactSheetTests {
    @Test(arguments: [(80, 3), (66, 3), (64, 3), (63, 2), (42, 2), (41, 1), (20, 1), (10, 1), (200, 9)])
    func tilesPerRowForAWidth(width: Int, perRow: Int) {
        let sheet = ContactSheet(method: .halfBlocks(.trueColor), terminalColumns: width, tileColumns: 20, gap: 2)
        #expect(sheet.perRow == perRow)
        #expect(sheet.perRow * sheet.tileColumns + (sheet.perRow - 1) * sheet.gap <= width)
    }

    @Test func tilesShrinkToANarrowTerminalAndRowsFollowTheTileWidth() {
        let narrow = ContactSheet(method: .halfBlocks(.trueColor), terminalColumns: 10, tileColumns: 20)
        #expect(narrow.tileColumns == 10)
        #expect(narrow.maxImageRows == 4)
        #expect(ContactSheet(method: .kitty, terminalColumns: 80, tileColumns: 20).maxImageRows == 8)
        #expect(ContactSheet(method: .kitty, terminalColumns: 80).pixelBox == PixelSize(width: 200, height: 160))
        #expect(ContactSheet(method: .halfBlocks(.trueColor), terminalColumns: 80).pixelBox == PixelSize(width: 20, height: 16))
    }

    static let redOverBlue = TerminalPicture(image: image([[red, red, red, red], [blue, blue, blue, blue]]))
    static let items = [
        ContactSheet.Item(name: "a.jpg", picture: redOverBlue),
        ContactSheet.Item(name: "bb", picture: nil, note: "none"),
    ]

    @Test func halfBlockRowIsExact() {
        let sheet = ContactSheet(method: .halfBlocks(.trueColor), terminalColumns: 10, tileColumns: 4, gap: 2, maxImageRows: 1)
        #expect(sheet.perRow == 2)
        #expect(sheet.render(Self.items) == "\(esc)[38;2;255;0;0;48;2;0;0;255m▀▀▀▀\(esc)[0m  none\na.j…   bb\n")
    }

    @Test func kittyRowReservesPositionsAndRestores() {
        let sheet = ContactSheet(method: .kitty, terminalColumns: 10, tileColumns: 4, gap: 2, maxImageRows: 1)
        let picture = TerminalPicture(image: image([[red]]))
        let out = sheet.render([ContactSheet.Item(name: "a.jpg", picture: picture), Self.items[1]])
        let kitty = "\(esc)_Ga=T,f=24,s=1,v=1,c=2,r=1,C=1,q=2,m=0;/wAA\(esc)\\"
        #expect(out == "\n\(esc)[1A\(esc)[2G\(esc)7\(kitty)\(esc)8\(esc)[7Gnone\(esc)[1B\ra.j…   bb\n")
    }

    @Test func textModeListsNamesOnly() {
        let sheet = ContactSheet(method: .text, terminalColumns: 80)
        #expect(sheet.render(Self.items + [ContactSheet.Item(name: "x\u{1B}]0;pwned\u{07}", picture: nil)]) == "a.jpg\nbb: none\nx?]0;pwned?\n")
    }

    @Test func rowsWrapAndNamesAreSanitizedAndCut() {
        let sheet = ContactSheet(method: .halfBlocks(.palette256), terminalColumns: 10, tileColumns: 4, gap: 2, maxImageRows: 1)
        let items = (0..<3).map { ContactSheet.Item(name: "\u{1B}[2J\($0)", picture: Self.redOverBlue) }
        let block = "\(esc)[38;5;196;48;5;21m▀▀▀▀\(esc)[0m"
        #expect(sheet.render(items) == "\(block)  \(block)\n?[2…  ?[2…\n\(block)\n?[2…\n")
    }

    @Test func picturesAreCentredAndRowsAsTallAsTheTallest() {
        // A 2x4 (portrait) picture in a 4-column tile with up to 2 rows: 2 columns, centred; the 1-row
        // picture beside it leaves its second row blank.
        let portrait = TerminalPicture(image: image([[red, red], [red, red], [blue, blue], [blue, blue]]))
        let sheet = ContactSheet(method: .halfBlocks(.trueColor), terminalColumns: 10, tileColumns: 4, gap: 2, maxImageRows: 2)
        let out = sheet.render([
            ContactSheet.Item(name: "p", picture: portrait), ContactSheet.Item(name: "l", picture: Self.redOverBlue),
        ])
        #expect(out == [
            " \(esc)[38;2;255;0;0;48;2;255;0;0m▀▀\(esc)[0m   \(esc)[38;2;255;0;0;48;2;0;0;255m▀▀▀▀\(esc)[0m",
            " \(esc)[38;2;0;0;255;48;2;0;0;255m▀▀\(esc)[0m",
            " p     l",
            "",
        ].joined(separator: "\n"))
    }
}

@Suite struct BesideLayoutTests {
    static let rendered = TerminalImageRenderer(method: .halfBlocks(.trueColor))
        .render(TerminalPicture(image: fourByFour), columns: 4, maxRows: 2)!

    @Test func textBesideHalfBlocks() throws {
        let out = BesideLayout.render(Self.rendered, lines: ["Name: DJI_0001.JPG", "Size: 3.1 MB", "ISO 100"], terminalColumns: 40, gap: 2, minimumTextColumns: 10)
        guard case .lines(let picture) = Self.rendered.body else { Issue.record("not lines"); return }
        #expect(out == "\(picture[0])  Name: DJI_0001.JPG\n\(picture[1])  Size: 3.1 MB\n      ISO 100\n")
    }

    @Test func linesAreCutToTheRoomLeftAndSanitized() {
        let out = BesideLayout.render(Self.rendered, lines: ["0123456789abcdef", "bad\u{1B}[2Jname"], terminalColumns: 16, gap: 2, minimumTextColumns: 5)
        guard case .lines(let picture) = Self.rendered.body else { Issue.record("not lines"); return }
        #expect(out == "\(picture[0])  012345678…\n\(picture[1])  bad?[2Jna…\n")
    }

    @Test func tooNarrowPutsTextUnderThePicture() {
        let out = BesideLayout.render(Self.rendered, lines: ["Name: a"], terminalColumns: 20, gap: 2, minimumTextColumns: 20)
        guard case .lines(let picture) = Self.rendered.body else { Issue.record("not lines"); return }
        #expect(out == "\(picture[0])\n\(picture[1])\nName: a\n")
    }

    @Test func protocolPictureReservesRowsAndPositionsText() {
        let escape = RenderedImage(columns: 3, rows: 2, body: .escape("<IMG>"))
        let out = BesideLayout.render(escape, lines: ["one", "two", "three"], terminalColumns: 40, gap: 2, minimumTextColumns: 10)
        #expect(out == "\n\n\n\(esc)[3A\(esc)7<IMG>\(esc)8\(esc)[6Gone\n\(esc)[6Gtwo\n\(esc)[6Gthree\n")
    }

    @Test func noPictureIsJustText() {
        #expect(BesideLayout.render(nil, lines: ["a", "b\u{7}"], terminalColumns: 40) == "a\nb?\n")
    }
}
