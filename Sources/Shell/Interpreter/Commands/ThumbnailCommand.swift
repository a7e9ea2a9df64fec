import Foundation
import MediaManager

/// thumb: fetches thumbnails through the session's thumbnail queue (one request at a time, in order),
/// shows each (see `ThumbnailPresenter`) and, with --save DIR, writes them as JPEG files.
extension Interpreter {
    func thumbnails(_ invocation: Invocation) throws {
        let session = try requireCamera()
        let catalog = try loadedCatalog()
        let files = try files(for: invocation.arguments, catalog: catalog)
        guard session.camera.summary.hasThumbnails else {
            throw CommandError("this camera does not give thumbnails")
        }
        let saveFolder = invocation.value(of: .save).map { LocalDisk.expandingTilde($0.text) }
        if let saveFolder {
            if LocalDisk.exists(saveFolder) && !LocalDisk.isFolder(saveFolder) {
                throw CommandError("\(SafeText.display(saveFolder)) is not a folder")
            }
            do {
                try FileManager.default.createDirectory(atPath: saveFolder, withIntermediateDirectories: true)
            } catch {
                throw CommandError("cannot create \(SafeText.display(saveFolder)): \(error.localizedDescription)")
            }
        }

        let arrivals = ThumbnailArrivals()
        for file in files {
            session.thumbnails.enqueue(file.id) { id, result in arrivals.deliver(id, result) }
        }
        let presenter = ThumbnailPresenter(images: state.settings.images, output: output)
        let localNames = LocalFileName.uniqueNames(for: files.map { $0.name + ".thumb.jpg" })
        var failures = 0
        for (index, file) in files.enumerated() {
            guard let result = arrivals.wait(for: file.id, interrupt: interrupt) else {
                session.thumbnails.cancelAll()
                report("thumb: interrupted", severity: .notice)
                throw CommandInterrupted()
            }
            let name = SafeText.display(file.name)
            switch result {
            case .failure(let error):
                failures += 1
                if Self.isDisconnect(error) {
                    session.thumbnails.cancelAll()
                    reportFailure(of: "thumb", error)
                    throw FailureReported()
                }
                report("thumb: \(name): \(Self.message(for: error))" + modeHint(for: error))
            case .success(let bytes):
                var line = presenter.present(bytes, of: file)
                if let saveFolder {
                    let path = LocalDisk.join(saveFolder, localNames[index])
                    do {
                        try Self.save(bytes, to: path, overwrite: invocation.has(.force))
                        line += " -> \(SafeText.display(path))"
                    } catch {
                        failures += 1
                        report("thumb: \(name): \(Self.message(for: error))" + modeHint(for: error))
                    }
                }
                output.line(line)
            }
        }
        if failures > 0 { throw FailureReported() }
    }

    /// Writes a thumbnail; an existing file stays unless `overwrite`.
    static func save(_ bytes: [UInt8], to path: String, overwrite: Bool) throws {
        if LocalDisk.exists(path) && !overwrite {
            throw CommandError("\(SafeText.display(path)) exists (use --force to overwrite)")
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandError("cannot write \(SafeText.display(path)): \(error.localizedDescription)")
        }
    }
}

/// Thumbnails arriving from the queue's worker thread, waited for in order on the shell's thread.
final class ThumbnailArrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private var results: [UInt32: Result<[UInt8], Error>] = [:]

    func deliver(_ id: UInt32, _ result: Result<[UInt8], Error>) {
        condition.lock()
        results[id] = result
        condition.broadcast()
        condition.unlock()
    }

    /// The thumbnail of `id` once it arrived, or nil when Ctrl-C came first.
    func wait(for id: UInt32, interrupt: any InterruptSource) -> Result<[UInt8], Error>? {
        condition.lock()
        defer { condition.unlock() }
        while results[id] == nil {
            if interrupt.isPending { return nil }
            // Woken by each arrival; the bound is only so that Ctrl-C is noticed.
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        return results[id]
    }
}
