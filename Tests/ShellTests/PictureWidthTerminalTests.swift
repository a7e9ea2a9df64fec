import Foundation
import TestSupport
import Testing

@testable import Shell
@testable import TerminalKit

/// Pictures use the terminal they are drawn in (issue 42): the built `mediashell` in a real pty of 80 and of
/// 200 columns (40 rows), in each image mode. `thumb` of one photo fills the width, or the height less a
/// line for its name and one for the prompt; `ls --thumbs` puts as many tiles to a row as fit and widens
/// them to fill it. Before, `thumb` drew 24 columns and the sheet 18 at any width.
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process), .notInFastRun)
struct PictureWidthTerminalTests {
    let home: TemporaryFolder

    init() throws {
        home = try TemporaryFolder("msh-pty-width")
        _ = try home.write(".editrc", text: "setty -x +noflsh\n")
    }

    static let rows = 40

    @Test(arguments: [80, 200], ["blocks", "kitty", "iterm"])
    func thumbAndTheSheetUseTheWidth(columns: Int, mode: String) throws {
        let log = home.path + "/transcript"
        let result = try Expect.run(
            """
            log_file -a -noappend {\(log)}
            spawn -noecho sh -c "stty cols \(columns) rows \(Self.rows) noflsh; exec env TERM=xterm COLORTERM=truecolor \
            LANG=C.UTF-8 HOME='\(home.path)' XDG_STATE_HOME='\(home.path)/state' '\(ShellBinary.path)' --camera sim:"
            must {sim:/> $} 2
            send "cd DCIM/100MEDIA; set images \(mode); echo THUMB; thumb DJI_0001.JPG; echo SHEET; ls --thumbs; echo END\\r"
            must {\\r\\nEND\\r\\n} 3
            must {100MEDIA> $} 4
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)), as: UTF8.self)
        let thumb = try #require(Self.between(text, "\r\nTHUMB\r\n", "\r\nSHEET\r\n"))
        let sheet = try #require(Self.between(text, "\r\nSHEET\r\n", "\r\nEND\r\n"))

        // The photo's thumbnail is 160x120. At 80 columns the width limits it: 80x30. At 200 the height does,
        // 38 rows: in half blocks 76 pixels high and 101 wide; in 10x20-pixel cells 760 high, 1013 wide: 102.
        let (wide, high) = columns == 80 ? (80, 30) : (mode == "blocks" ? 101 : 102, Self.rows - 2)
        let (drawnWide, drawnHigh) = try Self.pictureCells(thumb, mode: mode).first.map { ($0.0, $0.1) } ?? (0, 0)
        #expect(drawnWide == wide && drawnHigh == high, "\(mode) at \(columns): \(drawnWide)x\(drawnHigh), not \(wide)x\(high)")

        // Six photos and videos: four tiles of 18 fill 80 columns, all six fit in 200 at 31 each.
        let names = ["DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.MP4", "DJI_0004.JPG", "DJI_0005.MP4", "DJI_0006.MOV"]
        let (perRow, tile) = columns == 80 ? (4, 18) : (6, 31)
        // (After a protocol picture the cursor steps down and returns: `ESC[nB` and a carriage return.)
        let plain = strippingEscapes(sheet).components(separatedBy: "\r\n").map { $0.replacingOccurrences(of: "\r", with: "") }
        #expect(plain.contains(nameRow(Array(names.prefix(perRow)), tile: tile)), "\(mode) at \(columns): \(plain)")
        #expect(plain.allSatisfy { TerminalWidth.of($0) <= columns })
        let first = try Self.pictureCells(sheet, mode: mode).first
        #expect(first?.0 == tile, "the first photo fills its tile: \(String(describing: first))")
    }

    /// The text between two markers of the transcript.
    static func between(_ text: String, _ start: String, _ end: String) -> String? {
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex) else {
            return nil
        }
        return String(text[from.upperBound..<to.lowerBound])
    }

    /// Each picture's cells, in order: kitty's `c=`/`r=`, iTerm2's `width=`/`height=`, or for half blocks the
    /// width of the first picture's lines and how many there are.
    static func pictureCells(_ text: String, mode: String) throws -> [(Int, Int)] {
        switch mode {
        case "kitty":
            return text.matches(of: /a=T,f=24,s=[0-9]+,v=[0-9]+,c=([0-9]+),r=([0-9]+)/).map { (Int($0.1)!, Int($0.2)!) }
        case "iterm":
            return text.matches(of: /;width=([0-9]+);height=([0-9]+);/).map { (Int($0.1)!, Int($0.2)!) }
        default:
            let lines = strippingEscapes(text).components(separatedBy: "\r\n")
            let picture = lines.prefix { halfBlocks($0) > 0 }
            let leading = picture.first.map { $0.prefix { $0 == " " }.count } ?? 0
            let width = picture.first.map { line in line.dropFirst(leading).prefix { $0 == "\u{2580}" }.count } ?? 0
            return [(width, picture.count)]
        }
    }
}
