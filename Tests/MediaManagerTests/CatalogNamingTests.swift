import MediaFormats
import PTP
import Testing

@testable import MediaManager

/// The catalog's names: a folder whose names are usable and already in order is taken as it is; any
/// other goes through `makeDistinct` and a sort, which give the same result on the ordered ones.
@Suite struct CatalogNamingTests {
    static func files(_ names: [String]) -> [MediaFile] {
        names.enumerated().map { index, name in
            MediaFile(
                id: UInt32(index + 1), storageID: 1, parentID: 0, name: name, folder: "DCIM", kind: .init(fileName: name),
                isFolder: false, format: .undefined, size: 1, captureDate: nil, video: nil)
        }
    }

    @Test func namesInByteOrderNeedNoRenamingNorSorting() {
        let ordered = ["A (2).JPG", "A.JPG", "B.JPG", "a.jpg", "Ä.JPG"]
        #expect(CatalogNaming.areUsableAndAscending(Self.files(ordered)))
        #expect(CatalogNaming.areUsableAndAscending(Self.files([])))
        #expect(CatalogNaming.distinct(Self.files(ordered)).map(\.name) == ordered)
    }

    @Test(arguments: [
        ["A.JPG", "A.JPG"],  // a repeated name
        ["B.JPG", "A.JPG"],  // out of order
        ["A.JPG", "a/b.JPG"],  // a name that cannot be a path component
        ["", "A.JPG"], [".", "A.JPG"], ["..", "A.JPG"],
    ])
    func anyOtherFolderIsRenamedAndSorted(_ names: [String]) {
        #expect(!CatalogNaming.areUsableAndAscending(Self.files(names)))
    }

    @Test func aRepeatedNameGetsANumberAfterTheFirst() {
        #expect(CatalogNaming.distinct(Self.files(["A.JPG", "B.JPG", "A.JPG"])).map(\.name) == ["A.JPG", "B.JPG", "A (2).JPG"])
    }

    /// The catalog's order is the names' UTF-8 bytes, compared in place: the same answers as comparing
    /// the byte sequences, for prefixes, empty names, non-ASCII (composed and decomposed é differ) and
    /// names long enough to live outside the string itself.
    @Test func namesCompareByTheirBytes() {
        let names = [
            "", "A", "a", "AB", "A.JPG", "A.JPGX", "B", "Z", "_", "é", "e\u{301}", "ä.jpg", "日本.MP4", "🎉",
            String(repeating: "x", count: 40), String(repeating: "x", count: 41), String(repeating: "x", count: 40) + "é",
        ]
        for a in names {
            for b in names {
                #expect(CatalogNaming.bytesPrecede(a, b) == a.utf8.lexicographicallyPrecedes(b.utf8), "\(a) < \(b)")
            }
        }
    }
}
