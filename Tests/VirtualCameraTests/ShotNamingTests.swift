import Foundation
import Testing

@testable import VirtualCamera

/// A capture is named as the camera it pretends to be names its shots (issue 48, item 6d): its own prefix
/// and counter, one past the highest number of its own patterns on the card (its movies included), never
/// after another camera's files (`BIG_0005.BIN` gave `BIG_0006.JPG`).
@Suite struct ShotNamingTests {
    /// An in-memory card holding `paths`, able to capture.
    private func card(_ paths: [String]) -> Card {
        let card = Card(inMemoryLabel: "test")
        for path in paths {
            let parts = path.split(separator: "/")
            card.add(name: String(parts.last!), in: parts.dropLast().joined(separator: "/"), content: .bytes([1, 2, 3]))
        }
        card.captureImage = [0xFF, 0xD8, 0xFF, 0xD9]
        return card
    }

    private func shot(_ persona: PersonaName, on paths: [String]) throws -> String? {
        let card = card(paths)
        let handle = try card.capture(naming: Persona.named(persona).shotNaming)
        return card.path(of: handle)
    }

    @Test(arguments: [
        // The generic camera: IMG_, after its own highest, not after the drone's DJI_ or a BIG_ file.
        (PersonaName.generic, ["DCIM/100MEDIA/DJI_0009.JPG", "DCIM/100MEDIA/IMG_0005.JPG", "DCIM/101MEDIA/BIG_0050.BIN"],
            "DCIM/101MEDIA/IMG_0006.JPG"),
        // Canon: movies (MVI_) and Adobe RGB stills (_MG_) share the counter; the shot goes in the last folder.
        (.canonEOS, ["DCIM/100CANON/IMG_0006.JPG", "DCIM/100CANON/MVI_0007.MOV", "DCIM/100CANON/BIG_0005.BIN",
            "DCIM/100CANON/DSC_0100.JPG"], "DCIM/100CANON/IMG_0008.JPG"),
        (.canonEOS, ["DCIM/100CANON/_MG_0041.CR2", "DCIM/101CANON/IMG_0002.JPG"], "DCIM/101CANON/IMG_0042.JPG"),
        (.nikon, ["DCIM/100NIKON/DSC_0041.NEF", "DCIM/100NIKON/_DSC0042.JPG", "DCIM/100NIKON/IMG_0099.JPG"],
            "DCIM/100NIKON/DSC_0043.JPG"),
        (.fujiX, ["DCIM/100_FUJI/DSCF0010.JPG", "DCIM/100_FUJI/DSCF0011.RAF", "DCIM/100_FUJI/BIG_0500.BIN"],
            "DCIM/100_FUJI/DSCF0012.JPG"),
        // A card without DCIM folders: the camera's own first folder, from 0001.
        (.canonEOS, ["MISC/BIG_0005.BIN"], "DCIM/100CANON/IMG_0001.JPG"),
        (.nikon, [], "DCIM/100NIKON/DSC_0001.JPG"),
        (.fujiX, [], "DCIM/100_FUJI/DSCF0001.JPG"),
        // Past 9999: a new folder, from 0001.
        (.canonEOS, ["DCIM/100CANON/IMG_9999.JPG"], "DCIM/101CANON/IMG_0001.JPG"),
    ])
    func aShotIsNamedAsTheBodyNamesIt(persona: PersonaName, card paths: [String], expected: String) throws {
        #expect(try shot(persona, on: paths) == expected)
    }

    @Test func onlyTheCamerasOwnPatternsCount() {
        let canon = Persona.named(.canonEOS).shotNaming
        #expect(canon.number(of: "IMG_0007.CR2") == 7)
        #expect(canon.number(of: "mvi_0123.mov") == 123)
        #expect(canon.number(of: "IMG_007.JPG") == nil)
        #expect(canon.number(of: "IMG_00071.JPG") == nil)
        #expect(canon.number(of: "IMG_0007") == nil)
        #expect(canon.number(of: "BIG_0005.BIN") == nil)
        #expect(canon.name(42) == "IMG_0042.JPG")
    }
}
