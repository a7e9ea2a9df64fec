import CommandKit
import Foundation
import Imaging
import MediaFormats
import MediaManager
import POSIX
import TerminalGraphics
import TerminalKit
import Words

/// liveview [--count N] [--seconds S] [--fps N] [--save FILE [--force]]: the camera's live view drawn in
/// place, frame after frame, with its rate under it, until a key, Ctrl-C, N frames or S seconds; or one
/// frame saved as a JPEG.
struct LiveViewCommand: ShellCommand {
    let spec = CommandSpec(
        "liveview", area: .camera,
        options: [
            OptionSpec(.frameCount, long: "count", value: ArgumentSpec("N", .integer), "stop after N frames"),
            OptionSpec(.seconds, long: "seconds", value: ArgumentSpec("S", .text), "stop after S seconds"),
            OptionSpec(.fpsCap, long: "fps", value: ArgumentSpec("N", .text), "draw at most N frames a second"),
            OptionSpec(.save, long: "save", value: ArgumentSpec("FILE", .localPath), "save one frame as a JPEG and stop"),
            OptionSpec(.force, long: "force", "with --save, replace FILE"),
        ],
        summary: "see what the camera sees",
        details: """
            Draws the camera's live view in the terminal, each frame in the place of the last, with the rate \
            under it, until a key is pressed (or Ctrl-C, --count N frames, --seconds S). --save FILE keeps one \
            frame as a JPEG. Canon EOS bodies (GetViewFinderData, with the view sent to the computer), Nikon \
            bodies (StartLiveView, GetLiveViewImg) and Fujifilm X bodies on Wi-Fi (their live-view socket, \
            opened by InitiateOpenCapture) have it; standard PTP defines none. When output is not a \
            terminal, a line per frame gives its size, and --count or --seconds says when to stop.
            """,
        examples: ["liveview", "liveview --fps 10", "liveview --save focus.jpg", "liveview --count 50"])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let limits = try Limits(invocation)
        let save = invocation.value(of: .save).map { LocalDisk.expandingTilde($0.text) }
        if let save, LocalDisk.exists(save), !invocation.has(.force) {
            throw CommandError("\(SafeText.display(save)) exists (use --force to replace it)")
        }
        let presenter = shell.pictures.presenter
        let stopsOnKey = shell.isInteractive && Terminal.isInteractive
        if save == nil && limits.count == nil && limits.seconds == nil && !stopsOnKey {
            throw CommandError("without a terminal to press a key in, say when to stop: --count N or --seconds S")
        }
        let live: LiveView
        do {
            live = try shell.interruptibly(session) { try session.camera.startLiveView() }
        } catch CameraCapabilityError.notOffered {
            throw CommandError(LiveViewWords.notOffered)
        }
        // Handed back even after Ctrl-C (which would stop a request made through `interruptibly` before it is
        // sent): one short request, bounded by the transport's own timeout.
        defer { live.stop() }
        let interrupt = shell.interrupt

        if let save {
            let jpeg = try shell.interruptibly(session) { try live.next(cancellation: interrupt.cancellation) }
            do {
                try LocalDisk.writeAtomically(jpeg, to: save)
            } catch {
                throw CommandError("cannot write \(SafeText.display(save)): \(error)")
            }
            let info = try? JPEGReader().read(from: MemoryByteSource(jpeg))
            shell.output.note(LiveViewWords.saved(save, width: info?.displayWidth, height: info?.displayHeight, bytes: jpeg.count))
            return .success
        }

        let clock = MonotonicClock()
        let started = clock.now()
        var frames = 0
        var first: Double?  // when the first frame came: the rate is counted from there
        var drawn: Int?  // the rows the last frame took, to go back over them
        let layout = presenter.layout(.fit, count: 1, minimumTile: 1)
        let sheet = presenter.sheet(layout)
        try KeyWatch.watching { pressed in
            while true {
                if interrupt.isPending || pressed() { break }
                if let count = limits.count, frames >= count { break }
                if let seconds = limits.seconds, clock.now() - started >= seconds { break }
                if let cap = limits.framesPerSecond {
                    // Waited in slices, so that a key or Ctrl-C ends even a slow rate at once.
                    let due = started + Double(frames) / cap
                    var ended = false
                    while !ended, clock.now() < due {
                        ended = interrupt.isPending || pressed()
                        if !ended { clock.pause(min(0.05, due - clock.now())) }
                    }
                    if ended { break }
                }
                let jpeg: [UInt8]
                do {
                    jpeg = try shell.interruptibly(session) { try live.next(cancellation: interrupt.cancellation) }
                } catch is Interrupted {
                    break
                }
                frames += 1
                if first == nil { first = clock.now() }
                guard presenter.drawsPictures else {
                    let info = try? JPEGReader().read(from: MemoryByteSource(jpeg))
                    shell.output.line(LiveViewWords.frame(frames, width: info?.displayWidth, height: info?.displayHeight, bytes: jpeg.count))
                    continue
                }
                let status = LiveViewWords.status(frames: frames, seconds: clock.now() - (first ?? started), stopsOnKey: stopsOnKey)
                let picture = try? TerminalPicture.decode(jpeg: jpeg, fitting: sheet.pixelBox)
                let rows = picture.map { sheet.renderer.cells(for: $0.image.size, columns: sheet.tileColumns, maxRows: sheet.maxImageRows).rows } ?? 1
                var text = ""
                if let drawn { text += "\u{1B}[\(drawn + 1)A\r" + (presenter.method == .kitty ? KittyRenderer.deleteAll : "") }
                text += sheet.render(row: [ContactSheet.Item(name: status, picture: picture, note: "unreadable frame")])
                shell.output.write(text)
                drawn = rows
            }
        }
        interrupt.clear()
        shell.output.note(LiveViewWords.summary(frames: frames, seconds: clock.now() - started, sinceFirst: first.map { clock.now() - $0 }))
        return .success
    }

    /// When to stop, and how fast to go.
    struct Limits {
        var count: Int?
        var seconds: Double?
        var framesPerSecond: Double?

        init(_ invocation: Invocation) throws {
            if let text = invocation.value(of: .frameCount)?.text {
                guard let count = Int(text), count >= 1 else { throw CommandError("--count \(SafeText.display(text)): give a number of frames, 1 or more") }
                self.count = count
            }
            if let text = invocation.value(of: .seconds)?.text {
                guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                    throw CommandError("--seconds \(SafeText.display(text)): give a number of seconds, such as 10 or 2.5")
                }
                self.seconds = seconds
            }
            if let text = invocation.value(of: .fpsCap)?.text {
                guard let rate = Double(text), rate > 0, rate <= 240 else {
                    throw CommandError("--fps \(SafeText.display(text)): give a rate from 0.1 to 240, such as 10")
                }
                framesPerSecond = rate
            }
        }
    }
}

extension OptionName {
    static let frameCount: OptionName = "frame-count"
    static let seconds: OptionName = "seconds"
    static let fpsCap: OptionName = "fps"
}
