import CommandKit
import Failures
import Foundation
import Imaging
import MediaFormats
import MediaManager
import POSIX
import Playback
import TerminalGraphics
import TerminalKit
import Thumbnails
import Words

extension ThumbnailDrawing {
    /// `thumb --frames N`: for each video in `videos`, its name on a line, then `count` pictures spread across
    /// the clip (`MovieKeyframes`) in a sheet sized as `size` asks, each titled with its time; a line per
    /// picture when pictures are off. A DJI clip's `.LRF` proxy is read in its place when there is one (the
    /// same timeline, a tenth of the bytes). Ctrl-C stops between pictures and kills a running ffmpeg.
    public func showFrames(
        of videos: [MediaFile], count: Int, session: MediaSession, size: PictureLayout.Request, command: String
    ) -> CommandOutcome {
        guard let decoder = KeyframeDecoder.find(environment: host.environment) else {
            host.report("\(command): --frames decodes the clip's keyframes with ffmpeg, which is not on the PATH")
            return .failed
        }
        let presenter = self.presenter
        let interrupt = host.interrupt
        let cancellation = interrupt.cancellation
        let sheet = presenter.sheet(presenter.layout(size, count: count, minimumTile: ThumbnailPresenter.sheetTileColumns))
        var failures = 0
        for video in videos {
            let proxy = session.catalog.group(of: video).first { $0.kind == .lowResolutionVideo && $0.id != video.id }
            let source = proxy ?? video
            host.output.line(SafeText.display(video.name) + (proxy.map { " (frames of \(SafeText.display($0.name)))" } ?? ""))
            var row: [ContactSheet.Item] = []
            do {
                try MovieKeyframes.pictures(
                    from: session.byteSource(for: source), name: source.name, count: count, decoder: decoder,
                    cancellation: cancellation
                ) { picture in
                    let title = TimeText.format(picture.seconds)
                    guard presenter.drawsPictures else {
                        host.output.line("  \(title): frame \(Self.dimensions(picture.jpeg)), \(HumanReadable.size(UInt64(picture.jpeg.count)))")
                        return
                    }
                    var item = ContactSheet.Item(name: title, picture: nil, note: "unreadable")
                    item.picture = try? TerminalPicture.decode(jpeg: picture.jpeg, fitting: sheet.pixelBox)
                    row.append(item)
                    if row.count == sheet.perRow {
                        host.output.write(sheet.render(row: row))
                        row.removeAll()
                    }
                }
                if !row.isEmpty { host.output.write(sheet.render(row: row)) }
            } catch {
                if !row.isEmpty { host.output.write(sheet.render(row: row)) }
                if error.isCancellation || interrupt.isPending {
                    host.report("\(command): interrupted", severity: .notice)
                    return .interrupted
                }
                if error.failureCategory == .disconnected {
                    host.reportCameraGone(during: command, error)
                    return .failed
                }
                failures += 1
                host.report("\(command): \(SafeText.display(video.name)): \(ErrorWords.sentence(for: error))")
            }
        }
        return .failed(if: failures)
    }

    /// `1280x720` for a JPEG that says, else `?`.
    static func dimensions(_ jpeg: [UInt8]) -> String {
        guard let info = try? JPEGReader().read(from: MemoryByteSource(jpeg)) else { return "?" }
        return "\(info.displayWidth)x\(info.displayHeight)"
    }
}
