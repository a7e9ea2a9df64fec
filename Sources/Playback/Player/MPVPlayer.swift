import Foundation
import POSIX

/// mpv as the player, driven through its JSON IPC socket.
///
/// Each `open` starts one mpv process in its own process group with a private folder (mode 0700) for the
/// IPC socket (`--input-ipc-server`), and hands it one end of a socket pair as `--input-ipc-client=fd://3`:
/// mpv quits when that connection closes, so it ends with this process even if the shell is killed (no
/// orphans). mpv reads the video from the loopback streaming endpoint, so it seeks without a download.
public final class MPVPlayer: Player, Sendable {
    public let executable: String
    public let extraArguments: [String]
    /// Seconds to wait for mpv to start and show the first frame.
    public let startTimeout = 15.0
    /// Seconds to wait for an answer to a command (a seek waits this long for the frame).
    public let commandTimeout = 10.0

    /// The running mpv and what belongs to it.
    private let running = Locked(Running())

    private struct Running {
        var process: ChildProcess?
        var connection: MPVConnection?
        var lifeline: Socket?
        var folder: String?
        var handler: (@Sendable (PlayerEvent) -> Void)?
        var closing = false
    }

    /// How far past a keyframe's time a keyframe seek aims: far less than a frame, far more than rounding.
    static let keyframeMargin = 0.001

    /// The descriptor number mpv finds its end of the lifeline at.
    static let inheritedDescriptor: Int32 = 3

    public init(executable: String, extraArguments: [String] = []) {
        self.executable = executable
        self.extraArguments = extraArguments
    }

    deinit { close() }

    /// The mpv executable on PATH, or nil when it is not installed.
    public static func locate() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/mpv"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    public var name: String? { "mpv" }

    /// The process id while it runs (for tests that check nothing is left behind).
    public var processID: Int32? { running.withLock { $0.process?.pid } }

    public var isRunning: Bool {
        running.withLock { $0.connection }?.isOpen ?? false
    }

    public func setEventHandler(_ handler: @escaping @Sendable (PlayerEvent) -> Void) {
        running.withLock { $0.handler = handler }
    }

    // MARK: Starting

    public func open(url: String, title: String, at position: Double, paused: Bool) throws(PlaybackError) {
        close()
        running.withLock { $0.closing = false }
        do {
            try start(url: url, title: title, at: position, paused: paused)
        } catch {
            close()
            throw error
        }
    }

    private func start(url: String, title: String, at position: Double, paused: Bool) throws(PlaybackError) {
        let (folder, socketName, watch, ours) = try starting { () throws(SystemError) in
            try launch(title: title)
        }
        let deadline = Deadline.after(startTimeout)
        switch try starting({ () throws(SystemError) in try watch.wait(for: socketName, orEndOf: ours, deadline: deadline) }) {
        case .created: break
        case .hangup: throw failure(.exitedAtStart(log: logTail(folder)))
        case .timedOut: throw failure(.timedOut(.controlSocket, seconds: Int(startTimeout)))
        }
        let socket = try connectToIPC(path: "\(folder)/\(socketName)", lifeline: ours, deadline: deadline)
        let connection = try starting { () throws(SystemError) in
            try MPVConnection(socket: socket) { [weak self] event in self?.handle(event) }
        }
        running.withLock { $0.connection = connection }

        try command(["observe_property", 1, "eof-reached"])
        try command(["set_property", "pause", true])
        try command(["set_property", "start", String(format: "%.6f", max(position, 0))])
        let restarts = connection.eventCount("playback-restart")
        let ends = connection.eventCount("end-file")
        try command(["loadfile", url, "replace"])
        let seen = connection.waitForEvent(
            ["playback-restart", "end-file"], after: [restarts, ends], timeout: max(deadline.remaining, 1))
        switch seen {
        case "playback-restart": break
        case "end-file":
            let why = connection.lastEndOfFile?.fileError ?? connection.lastEndOfFile?.reason ?? "unknown error"
            throw failure(.couldNotOpenStream(why: why))
        default:
            throw failure(connection.isOpen ? .timedOut(.firstFrame, seconds: Int(startTimeout)) : .exitedWhileOpening(log: logTail(folder)))
        }
        if !paused { try command(["set_property", "pause", false]) }
    }

    /// Makes the private folder, the lifeline and the watch on the folder, and spawns mpv; returns the
    /// folder, the name its control socket will have there, the watch, and this side of the lifeline.
    private func launch(title: String) throws(SystemError) -> (String, String, CreationWatch, Socket) {
        let folder = try makePrivateFolder(under: Self.temporaryParent(), prefix: "mediashell-mpv.")
        running.withLock { $0.folder = folder }
        let socketName = "ipc"
        let (ours, theirs) = try Socket.pair()
        let watch = try CreationWatch(folder: folder)
        let arguments =
            [
                "--idle=yes", "--no-terminal", "--keep-open=yes", "--ytdl=no", "--resume-playback=no",
                "--save-position-on-quit=no", "--hr-seek=yes", "--force-media-title=\(title)",
                "--input-ipc-server=\(folder)/\(socketName)",
                "--input-ipc-client=fd://\(Self.inheritedDescriptor)",
                // Read a little ahead of the position, not the whole file.
                "--cache=yes", "--cache-secs=4", "--demuxer-max-bytes=32MiB", "--demuxer-max-back-bytes=8MiB",
            ] + extraArguments
        var options = ChildProcess.Options()
        options.standardOutput = .file("\(folder)/mpv.log")
        options.standardError = .sameAsOutput
        options.handDown = [(theirs, Self.inheritedDescriptor)]
        let process = try ChildProcess.spawn(executable: executable, arguments: arguments, options: options)
        theirs.close()
        running.withLock {
            $0.process = process
            $0.lifeline = ours
        }
        // Nothing is read from the lifeline: tell mpv to send it no events.
        try? ours.send(Array(#"{"command":["disable_event","all"]}"#.utf8) + [10], .until(.after(1)))
        return (folder, socketName, watch, ours)
    }

    /// Runs a step of starting mpv; a failed system call is `.didNotStart`.
    private func starting<T>(_ step: () throws(SystemError) -> T) throws(PlaybackError) -> T {
        do {
            return try step()
        } catch {
            throw failure(.didNotStart(error))
        }
    }

    private func failure(_ failure: PlaybackError.PlayerFailure) -> PlaybackError {
        .player("mpv", failure)
    }

    /// Connects to mpv's socket. The file appears at bind(), a moment before listen(): a refused connection
    /// in that moment is retried briefly, within the start deadline.
    private func connectToIPC(path: String, lifeline: Socket, deadline: Deadline) throws(PlaybackError) -> Socket {
        while true {
            switch Result(catching: { () throws(SystemError) in try Socket.connect(unixPath: path, timeout: max(deadline.remaining, 0.1)) }) {
            case .success(let socket):
                return socket
            case .failure(let refused) where refused.isNobodyListening:
                if deadline.hasPassed { throw failure(.refusedControlSocket) }
                let readable = try starting { () throws(SystemError) in try lifeline.waitReadable(deadline: .after(0.005)) }
                if readable && lifeline.drainReachedEnd() { throw failure(.exitedAtStart(log: [])) }
            case .failure(let other):
                throw failure(.didNotStart(other))
            }
        }
    }

    // MARK: Commands

    public func setPaused(_ paused: Bool) throws(PlaybackError) {
        try command(["set_property", "pause", paused])
    }

    /// `seek T absolute+exact` (mpv's precise seek: it decodes from the keyframe before T and shows the first
    /// frame at T less 5 ms, so the frame's own time shows that frame), or for a keyframe `seek T
    /// absolute+keyframes`, with T a millisecond past the keyframe's time: mpv goes back to the keyframe at or
    /// before T, and its own rounding of the keyframe's time cannot take it to the keyframe before.
    public func seek(to seconds: Double, landing: SeekLanding) throws(PlaybackError) {
        guard let connection = running.withLock({ $0.connection }) else { throw failure(.notRunning) }
        let restarts = connection.eventCount("playback-restart")
        switch landing {
        case .frame: try command(["seek", max(seconds, 0), "absolute+exact"])
        case .keyframe: try command(["seek", max(seconds, 0) + Self.keyframeMargin, "absolute+keyframes"])
        }
        guard connection.waitForEvent(["playback-restart"], after: [restarts], timeout: commandTimeout) != nil else {
            throw failure(connection.isOpen ? .timedOut(.seek, seconds: Int(commandTimeout)) : .exited)
        }
    }

    public func observe() -> PlayerObservation? {
        guard let connection = running.withLock({ $0.connection }), connection.isOpen else { return nil }
        let position = (try? connection.request(["get_property", "time-pos"], timeout: 2))?.number
        let paused = (try? connection.request(["get_property", "pause"], timeout: 2))?.flag
        let ended = (try? connection.request(["get_property", "eof-reached"], timeout: 2))?.flag
        if position == nil && paused == nil { return nil }
        return PlayerObservation(position: position, paused: paused, reachedEnd: ended ?? false)
    }

    @discardableResult
    private func command(_ arguments: [Any]) throws(PlaybackError) -> MPVConnection.Value {
        guard let connection = running.withLock({ $0.connection }) else { throw failure(.notRunning) }
        do {
            return try connection.request(arguments, timeout: commandTimeout)
        } catch {
            throw failure(.command(error))
        }
    }

    // MARK: Ending

    /// Asks mpv to quit, waits (bounded) for it to go, kills it if it does not, reaps it and removes its
    /// private folder.
    public func close() {
        let (process, connection, lifeline, folder) = running.withLock { running in
            defer { running = Running(handler: running.handler, closing: true) }
            return (running.process, running.connection, running.lifeline, running.folder)
        }
        if let connection {
            _ = try? connection.request(["quit"], timeout: 1)
            connection.close()
        }
        if let process {
            // mpv's end of the lifeline closes when it exits: wait for that, then reap.
            var gone = false
            if let lifeline {
                let deadline = Deadline.after(3)
                while !gone, !deadline.hasPassed {
                    guard (try? lifeline.waitReadable(deadline: deadline)) == true else { break }
                    gone = lifeline.drainReachedEnd()
                }
            }
            if !gone { process.kill() }
            process.reap(blocking: true)
        }
        lifeline?.close()
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    private func handle(_ event: MPVConnection.Event) {
        let (handler, closing) = running.withLock { ($0.handler, $0.closing) }
        switch event.name {
        case "property-change" where event.property == "eof-reached" && event.boolValue == true:
            handler?(.reachedEnd)
        case "connection-closed" where !closing:
            handler?(.exited)
        default:
            break
        }
    }

    // MARK: The process

    /// Closes this side of the lifeline without asking mpv to quit: what happens when the shell dies.
    func dropLifeline() {
        let lifeline = running.withLock { running -> Socket? in
            defer { running.lifeline = nil }
            return running.lifeline
        }
        lifeline?.close()
    }

    /// The mpv process while it runs (to see how it ended).
    var process: ChildProcess? { running.withLock { $0.process } }

    // MARK: Helpers

    /// Where the private folder goes: $TMPDIR when its path leaves room for a socket name, else /tmp.
    private static func temporaryParent() -> String {
        var parent = FileManager.default.temporaryDirectory.path
        while parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
        return parent.utf8.count <= 60 && FileManager.default.fileExists(atPath: parent) ? parent : "/tmp"
    }

    /// The last three lines mpv wrote, for an error (none when it wrote nothing).
    private func logTail(_ folder: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: "\(folder)/mpv.log"), !data.isEmpty else { return [] }
        return String(decoding: data.suffix(2000), as: UTF8.self).split(separator: "\n").suffix(3).map(String.init)
    }
}
