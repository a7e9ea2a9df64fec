import Foundation
import MediaFormats
import MediaManager

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Decodes one keyframe into a JPEG with `ffmpeg`, which the shell uses only when it is on the PATH.
///
/// The keyframe goes in as a raw H.264/H.265 stream (`AnnexB.stream`: parameter sets and one sample, a few
/// kB for a proxy) on ffmpeg's standard input; one JPEG, at most `maxSide` pixels wide and turned upright by
/// the track's rotation, comes back on its standard output. The run is bounded in time and output, and
/// ffmpeg is killed when the command is cancelled.
struct KeyframeDecoder: Sendable {
    let executable: String
    var timeout: TimeInterval = 10
    var maxOutputBytes = 4 << 20
    var maxSide = 320

    /// ffmpeg from `PATH` in `environment`, nil when it is not there.
    static func find(environment: [String: String]) -> KeyframeDecoder? {
        let folders = environment["PATH", default: "/usr/local/bin:/usr/bin:/bin"].split(separator: ":")
        for folder in folders where !folder.isEmpty {
            let path = String(folder) + "/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: path) { return KeyframeDecoder(executable: path) }
        }
        return nil
    }

    /// ffmpeg's arguments for `codec` and a clockwise `rotation` of 0, 90, 180 or 270 degrees.
    func arguments(codec: AnnexB.Codec, rotation: Int) -> [String] {
        var filters = ["scale=w='min(\(maxSide),iw)':h=-2"]
        switch rotation {
        case 90: filters.append("transpose=clock")
        case 180: filters.append("hflip,vflip")
        case 270: filters.append("transpose=cclock")
        default: break
        }
        return [
            "-hide_banner", "-loglevel", "error", "-threads", "1",
            "-f", codec == .h264 ? "h264" : "hevc", "-i", "pipe:0",
            "-frames:v", "1", "-vf", filters.joined(separator: ","), "-pix_fmt", "yuvj420p",
            "-f", "mjpeg", "pipe:1",
        ]
    }

    func jpeg(
        from stream: [UInt8], codec: AnnexB.Codec, rotation: Int, cancellation: CancellationFlag
    ) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments(codec: codec, rotation: rotation)
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw CommandError("cannot run \(executable): \(error.localizedDescription)")
        }
        let reader = BoundedPipeReader(output.fileHandleForReading.fileDescriptor, limit: maxOutputBytes)
        PipeFeeder.feed(stream, to: input.fileHandleForWriting)

        let deadline = Date(timeIntervalSinceNow: timeout)
        var stopped: String?
        while finished.wait(timeout: .now() + 0.05) == .timedOut {
            if cancellation.isCancelled {
                stopped = "cancelled"
            } else if Date() > deadline {
                stopped = "ffmpeg took more than \(Self.seconds(timeout))"
            } else if reader.overflowed {
                stopped = "ffmpeg wrote more than \(maxOutputBytes) bytes"
            }
            if stopped != nil {
                kill(process.processIdentifier, SIGKILL)
                // Bounded: a child of the program could keep Foundation from seeing the end.
                _ = finished.wait(timeout: .now() + 2)
                break
            }
        }
        if stopped == "cancelled" { throw CancellationError() }
        if let stopped { throw CommandError(stopped) }
        guard let jpeg = reader.result(waitingUpTo: 2), process.terminationStatus == 0, jpeg.starts(with: [0xFF, 0xD8])
        else {
            throw CommandError("ffmpeg could not decode the keyframe (exit status \(process.terminationStatus))")
        }
        return jpeg
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// Writes bytes into a child's standard input on a thread of its own, then closes it. SIGPIPE is blocked on
/// that thread, so a child that exits early makes the write fail (EPIPE) instead of killing the shell.
private enum PipeFeeder {
    static func feed(_ bytes: [UInt8], to handle: FileHandle) {
        let thread = Thread {
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            let descriptor = handle.fileDescriptor
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { break }
                offset += written
            }
            try? handle.close()
        }
        thread.start()
    }
}

/// Reads a child's standard output to its end on a thread of its own, keeping at most `limit` bytes.
private final class BoundedPipeReader: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var tooMuch = false
    private let done = DispatchSemaphore(value: 0)

    init(_ descriptor: Int32, limit: Int) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let full = lock.withLock { () -> Bool in
                    if bytes.count + count > limit {
                        tooMuch = true
                        return true
                    }
                    bytes += buffer[0..<count]
                    return false
                }
                if full { break }
            }
            done.signal()
        }
        thread.start()
    }

    var overflowed: Bool { lock.withLock { tooMuch } }

    /// What was read, once the pipe ended (the writer exited) within `seconds`; nil when it did not end
    /// or was more than the limit.
    func result(waitingUpTo seconds: Double) -> [UInt8]? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { tooMuch ? nil : bytes }
    }
}
