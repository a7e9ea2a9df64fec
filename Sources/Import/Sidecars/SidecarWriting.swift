import Checksums
import Foundation
import MediaFormats
import MediaManager
import POSIX

/// What an import's sidecars say and how they are named (`import --meta`, the sidecar settings), and the
/// writing of one beside each copy of a file once it is home.
public struct SidecarWriting: Sendable {
    public var metadata: SidecarMetadata
    public var naming: XMPSidecar.Naming
    /// xmp:CreatorTool, `mediashell 0.1.0`.
    public var tool: String

    public init(metadata: SidecarMetadata, naming: XMPSidecar.Naming, tool: String) {
        self.metadata = metadata
        self.naming = naming
        self.tool = tool
    }

    /// The sidecar of `item` beside each of its `copies` (the first read for the lens its `{lens}` names).
    /// A sidecar already there is kept (the camera's own `.XMP`, a photo manager's edits). Returns the
    /// sidecars written, each with the checksum of its bytes (for the ASC MHL history, `import --mhl`).
    @discardableResult
    func write(for item: ImportItem, copies: [String], cameraModel: String) throws -> [(path: String, checksum: Checksum)] {
        guard let first = copies.first else { return [] }
        var values = ["name": item.file.name, "camera": cameraModel]
        if let time = item.captureTime {
            let text = time.text
            values["date"] = String(text.prefix(10))
            values["year"] = String(text.prefix(4))
        }
        if metadata.mentions("lens"), let lens = Self.lens(of: first) { values["lens"] = lens }
        let packet = XMPSidecar.packet(metadata.filled(values), captured: item.captureTime, tool: tool)
        var written: [(path: String, checksum: Checksum)] = []
        for copy in copies where try ImportError.onDisk({ try XMPSidecar.write(packet, beside: copy, naming: naming) }) {
            written.append((naming.path(for: copy), Checksum(.xxh128, hex: XXH128.hexDigest(of: Array(packet.utf8)))))
        }
        return written
    }

    /// The lens the picture at `path` names in its EXIF (its first bytes); nil for one that names none.
    static func lens(of path: String) -> String? {
        guard let source = try? FileByteSource(path: path), let tags = try? ExifReader().tags(from: source) else { return nil }
        let details = ExifDetails(tags: tags)
        return details.lensModel ?? details.lensMake
    }
}

extension SidecarMetadata {
    /// True when a value names `{token}`.
    func mentions(_ token: String) -> Bool {
        let mark = "{\(token)}"
        return (creators + keywords + [copyright, title, description].compactMap { $0 }).contains { $0.contains(mark) }
    }
}
