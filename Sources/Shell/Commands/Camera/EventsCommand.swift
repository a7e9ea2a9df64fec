import CommandKit
import Foundation
import MediaManager
import PTP
import TerminalKit
import Words

/// events [--json]: prints the camera's events as they come until Ctrl-C: files added and removed (by
/// path), settings changed (by name, with the new value), stores, captures, and codes this program does
/// not know (by code, with their parameters).
struct EventsCommand: ShellCommand {
    let spec = CommandSpec(
        "events", area: .camera, options: [.json],
        summary: "print the camera's events as they come",
        details: """
            Prints each event the camera sends, one a line, until Ctrl-C: ObjectAdded and ObjectRemoved with \
            the file's path, DevicePropChanged with the setting's name and new value, StoreAdded and \
            StoreRemoved, CaptureComplete, and codes unknown here by code with their parameters. --json \
            prints one object a line for scripts. A card folder reports files copied into it within a \
            second or so. A camera that sends no events prints nothing ('watch' lists such a camera again \
            and again instead).
            """)

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let catalog = session.catalog
        // The catalog names the files the events are about (a removed file by the path it had).
        try shell.interruptibly(session) { try catalog.ensureLoaded() }
        let queue = CameraEventQueue(session.camera) { catalog.file(id: $0)?.path }
        defer { queue.stop() }
        session.camera.watchForChanges()
        let json = invocation.has(.json)
        if !json { shell.output.note("waiting for the camera's events (Ctrl-C ends)") }
        shell.output.flush()
        let idle = IdleCheck(session: session)
        // Ctrl-C ends the command however it finds it: between two waits, or while the camera is asked
        // whether it is still there (the check then throws `Interrupted`).
        var stopped: Interrupted?
        while !shell.interrupt.isPending {
            let (arrivals, dropped) = queue.take(upTo: 0.1)
            if dropped > 0 { shell.report("events: \(dropped) events came faster than they could be printed and were lost", severity: .notice) }
            if arrivals.isEmpty {
                do {
                    try idle.check(guarded: { try shell.interruptibly(session, $0) })
                } catch let interrupted as Interrupted {
                    stopped = interrupted
                    break
                }
                continue
            }
            idle.heard()
            let added = arrivals.filter { $0.event.code == .objectAdded }.map { $0.event.parameter(0) }
            if !added.isEmpty { try? catalog.applyAdded(added) }
            for arrival in arrivals {
                let text = describe(arrival, session: session)
                shell.output.line(json ? text.json : text.line)
            }
            shell.output.flush()
        }
        shell.interrupt.clear()
        // Ends the line the terminal echoed `^C` on, so that the prompt starts a line of its own.
        if !json { shell.output.line("events: ended") }
        // The check found the camera not answering, and closed it: said, as the next command will need it.
        if let detail = stopped?.detail { shell.report("events: \(detail)", severity: .notice) }
        return .success
    }

    private func describe(_ arrival: CameraEventQueue.Arrival, session: MediaSession) -> CameraEventText {
        let path = arrival.path ?? session.catalog.file(id: arrival.event.parameter(0))?.path
        return CameraEventText(arrival.event, path: path) { code in
            let meaning = PropertyMeaning.of(code)
            let value = (try? session.camera.describeProperty(code)).map { SafeText.display(meaning.display($0.current)) }
            return (meaning.name, value)
        }
    }
}
