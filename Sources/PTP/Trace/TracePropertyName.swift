/// Short names of the MTP object properties a trace shows (MTP 1.1 appendix B); others as hex.
enum TracePropertyName {
    static let names: [UInt16: String] = [
        0xDC01: "StorageID", 0xDC02: "ObjectFormat", 0xDC03: "ProtectionStatus", 0xDC04: "ObjectSize",
        0xDC05: "AssociationType", 0xDC06: "AssociationDesc", 0xDC07: "ObjectFileName", 0xDC08: "DateCreated",
        0xDC09: "DateModified", 0xDC0A: "Keywords", 0xDC0B: "ParentObject", 0xDC41: "PersistentUID",
        0xDC44: "Name", 0xDC46: "Artist", 0xDC87: "Width", 0xDC88: "Height", 0xDC89: "Duration",
        0xDE9B: "VideoFourCC", 0xDE9D: "FramesPerThousandSeconds", 0xDE9E: "KeyFrameDistance",
    ]

    static func of(_ property: ObjectPropertyCode) -> String {
        names[property.rawValue] ?? "0x" + String(property.rawValue, radix: 16, uppercase: true)
    }
}
