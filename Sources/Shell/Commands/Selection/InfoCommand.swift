import CommandKit
import Foundation
import Import
import MediaFormats
import MediaManager
import POSIX
import TerminalKit
import Words

/// info [--all] [NAME]: a file's size, date, kind, dimensions, what its EXIF or its `.SRT` says (place,
/// exposure, lens, flight), sidecars and download state, as rows (with its thumbnail beside them when
/// pictures are on) or as JSON; `--all` adds every EXIF tag by exiftool's name.
struct InfoCommand: ShellCommand {
    let spec = CommandSpec(
        "info", area: .selection,
        options: [.json, OptionSpec(.all, short: "a", long: "all", "also list every EXIF tag, by exiftool's names")],
        arguments: [ArgumentSpec("NAME", .remoteName, .optional)],
        summary: "show a file's details",
        details: """
            Shows the size, date, type and dimensions of NAME, or of the selected file, and what the file says \
            about itself: for a photo its EXIF place (with a map link), altitude, exposure, lens, focal length, \
            camera and serial number; for a drone clip with an .SRT (or the .SRT itself) where the flight \
            started and ended, how high it went and how long it recorded. Read from the file's first bytes (and \
            the whole .SRT), never the whole file. --all lists every EXIF tag as exiftool names it, values as \
            'exiftool -n' prints them.
            """,
        examples: ["info DJI_0001.JPG", "ls -n; info --all #1", "info --json 'My Clip.MP4'"])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let catalog = try shell.loadedCatalog()
        let file: MediaFile
        if let word = invocation.arguments.first {
            file = try shell.oneFile(for: word, in: catalog, command: "info")
        } else {
            file = try shell.selectedFile(in: catalog)
        }
        let details = FileDetails(reading: file, session: session, catalog: catalog)
        let downloadFolder = shell.downloadFolder(nil)
        let local = Self.localCopy(of: file, in: downloadFolder, taken: details.taken.time?.instant(), session: session, shell: shell)
        // The .part a fetch would continue: beside its own name, or beside the name it takes off a different file.
        let partial: UInt64? =
            switch local {
            case .proven: nil
            case .different(_, let free): LocalDisk.regularFileSize(free + ".part")
            case .absent: shell.partialSize(of: file)
            }
        let selectedOffset = shell.state.selection?.file.path == file.path ? shell.state.selection?.offset : nil

        if invocation.has(.json) {
            shell.output.line(
                details.json(
                    dates: shell.dates, selectedOffset: selectedOffset, local: local, partial: partial,
                    allTags: invocation.has(.all)))
            return .success
        }

        var rows = details.rows(dates: shell.dates)
        if let row = details.downloadedRow(local, partial: partial, folder: downloadFolder) { rows.append(row) }
        if let selectedOffset { rows.append(["selected:", "yes, offset \(selectedOffset)"]) }
        let outcome = shell.pictures.printDetails(ColumnTable(rows: rows).lines(), of: file, session: session)
        if invocation.has(.all), !details.exifTags.isEmpty || file.kind.isImage {
            shell.output.line("")
            if details.exifTags.isEmpty {
                shell.output.line("EXIF: none")
            } else {
                shell.output.line("EXIF (\(details.exifTags.count) tags):")
                for line in ColumnTable(rows: ExifWords.allRows(details.exifTags)).lines() { shell.output.line(line) }
            }
        }
        return outcome
    }

    /// What the download folder holds of `file`, by the rule `fetch` follows: a copy proven by its size and
    /// time (the camera's date or the capture time `taken`), else by the checksum the import ledger
    /// recorded for it (read only when a file of its size is there but not of its time).
    static func localCopy(
        of file: MediaFile, in folder: String, taken: Date?, session: MediaSession, shell: any CommandContext
    ) -> DownloadedCopy {
        DownloadedCopy.find(
            LocalDisk.join(folder, LocalFileName.sanitize(file.name)), size: file.size, captured: file.captureDate,
            orCaptured: taken,
            knownHash: {
                let ledgers = try? Importer.ledgers(for: session, folder: LedgerLocation.folder(environment: shell.environment))
                return ledgers?.entry(for: file)?.checksum
            })
    }
}
