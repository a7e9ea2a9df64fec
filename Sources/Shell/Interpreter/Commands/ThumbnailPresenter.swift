import MediaFormats
import MediaManager

/// Shows a thumbnail that arrived. This is the seam for TerminalGraphics: when it can draw pictures,
/// `present` draws the JPEG here (with `images` on, or auto on a terminal that supports it) before the
/// description line. Until then it describes the thumbnail: its size in pixels and bytes.
struct ThumbnailPresenter {
    let images: Settings.Images
    let output: ShellOutput

    /// The line printed for the thumbnail of `file`: `DJI_0001.JPG: thumbnail 160x120, 5.2 kB`.
    func present(_ bytes: [UInt8], of file: MediaFile) -> String {
        var line = "\(SafeText.display(file.name)): thumbnail"
        if let info = try? JPEGReader().read(from: MemoryByteSource(bytes)) {
            line += " \(info.displayWidth)x\(info.displayHeight)"
        }
        return line + ", \(HumanReadable.size(UInt64(bytes.count)))"
    }
}
