import Foundation
import TestSupport
import Testing

/// One capture time per file, the one exiftool reads (the oracle), shown and used alike by `ls --json`,
/// `ls -l`, `info`, `find --since/--until`, `import --list`, `import --dry-run` (the pattern, to the
/// second), `import` (folders, mtimes to the second, the ledger) and `du`, over `dir:`, `sim:PATH` and
/// `serve`. The corpus is made here with exiftool and ffmpeg: EXIF with and without offset and
/// sub-seconds, a QuickTime creationdate with a zone, an MP4 with only its `mvhd` creation_time, a DJI
/// clip whose only date is its `.SRT`, a photo dated 1970; every file's own time (the camera's date) is
/// the day it was copied. The shell runs in a zone of +05:30, so an offset applied twice, or not at all,
/// shows.
@Suite(.serialized, .tags(.process, .port), .notInFastRun) struct CaptureTimeCorpusTests {
    static let zone = "Asia/Kolkata"
    static let zoneOffset = 19_800.0
    /// The day the files were copied to the card: their own time, the camera's date for them.
    static let copied = "2026-11-30 04:05:41"

    /// What exiftool (or the `.SRT`'s text, which exiftool does not read) says of one file.
    struct Expected: CustomStringConvertible {
        var name: String
        /// `2024-06-15 14:30:05`, as the shell shows it (the clock where it was taken, or this zone's).
        var clock: String
        /// `+09:00` when the source wrote one.
        var offset: String?
        /// Fractions of a second, kept for the mtime.
        var fraction: Double
        /// Which tag decided.
        var tag: String
        var day: String { String(clock.prefix(10)) }
        var minute: String { String(clock.prefix(16)) }
        /// The instant, for the file's modification time.
        var instant: Double {
            let wall = Self.wall(clock) + fraction
            guard let offset else { return wall - CaptureTimeCorpusTests.zoneOffset }
            let sign: Double = offset.hasPrefix("-") ? -1 : 1
            let hours = Double(offset.dropFirst().prefix(2)) ?? 0
            let minutes = Double(offset.suffix(2)) ?? 0
            return wall - sign * (hours * 3600 + minutes * 60)
        }
        var description: String { "\(name) \(clock)\(offset ?? "") (\(tag))" }

        static func wall(_ clock: String) -> Double {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = "yyyy-MM-dd HH:mm:ss"
            return f.date(from: clock)?.timeIntervalSince1970 ?? .nan
        }
    }

    /// The corpus in `card`/DCIM/100MEDIA and what the oracle says of each file (nil: a tool is missing).
    static func makeCorpus(_ card: String) throws -> [Expected]? {
        guard let exiftool = ExternalTool.exiftool, let ffmpeg = ExternalTool.ffmpeg else {
            print("skipped: the capture-time corpus needs exiftool and ffmpeg (scripts/setup installs them)")
            return nil
        }
        let folder = card + "/DCIM/100MEDIA"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func clip(_ name: String, _ extra: [String]) throws {
            try ffmpeg.run(
                ["-loglevel", "error", "-f", "lavfi", "-i", "testsrc=d=1:s=64x48:r=10", "-c:v", "mpeg4"] + extra
                    + ["-y", folder + "/" + name])
        }
        func photo(_ name: String, _ tags: [String]) throws {
            try ffmpeg.run(["-loglevel", "error", "-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1", "-y", folder + "/" + name])
            try exiftool.run(["-q", "-overwrite_original"] + tags + [folder + "/" + name])
        }
        try photo("IMG_0001.JPG", ["-DateTimeOriginal=2024:06:15 14:30:05"])
        try photo("IMG_0002.JPG", ["-DateTimeOriginal=2024:06:15 23:30:05", "-SubSecTimeOriginal=25", "-OffsetTimeOriginal=+09:00"])
        try photo("IMG_0003.JPG", ["-DateTimeOriginal=1970:01:01 00:00:00"])
        try clip("MVI_0004.MOV", ["-metadata", "creation_time=2024-05-01T08:20:30Z"])
        try exiftool.run(["-q", "-overwrite_original", "-Keys:CreationDate=2024:05:01 10:20:30+02:00", folder + "/MVI_0004.MOV"])
        try clip("MVI_0005.MP4", ["-metadata", "creation_time=2024-05-01T10:25:00Z"])
        try clip("DJI_0006.MP4", ["-fflags", "+bitexact"])
        let srt = "1\n00:00:00,000 --> 00:00:00,033\n<font size=\"28\">FrameCnt: 1, DiffTime: 33ms\n2024-05-02 09:15:00.123\n[iso: 100] [latitude: 46.1]</font>\n\n"
        try Data(srt.utf8).write(to: URL(fileURLWithPath: folder + "/DJI_0006.SRT"))
        try photo("IMG_0007.JPG", ["-DateTimeOriginal=2024:06:16 22:45:00"])
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let copiedDate = Date(timeIntervalSince1970: Expected.wall(copied))
        for name in names {
            try FileManager.default.setAttributes([.modificationDate: copiedDate], ofItemAtPath: folder + "/" + name)
        }

        // The oracle, read in the shell's zone (QuickTime times converted from UTC as exiftool does with
        // QuickTimeUTC).
        let read = try ProcessRunner.run(
            exiftool.executable,
            ["-j", "-G1", "-api", "QuickTimeUTC=1", "-SubSecDateTimeOriginal", "-DateTimeOriginal", "-Keys:CreationDate",
                "-QuickTime:CreateDate", "-System:FileModifyDate"] + names.map { folder + "/" + $0 },
            environment: ["TZ": zone])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [[String: Any]])
        var expected: [Expected] = []
        for object in objects {
            let name = ((object["SourceFile"] as? String) ?? "").split(separator: "/").last.map(String.init) ?? ""
            func value(_ tag: String) -> String? {
                // exiftool shows an unset time as 0000:00:00, or as 1904 (QuickTime's epoch) when converting it.
                guard let text = object[tag] as? String, let year = Int(text.prefix(4)), year > 1970 else { return nil }
                return text
            }
            let srtTime = name.hasPrefix("DJI_0006") ? "2024:05:02 09:15:00.123" : nil
            let candidates: [(String, String?)] = [
                ("EXIF", value("Composite:SubSecDateTimeOriginal") ?? value("ExifIFD:DateTimeOriginal")),
                ("Keys:CreationDate", value("Keys:CreationDate")), ("QuickTime:CreateDate", value("QuickTime:CreateDate")),
                ("SRT", srtTime), ("FileModifyDate", value("System:FileModifyDate")),
            ]
            guard let (tag, text) = candidates.first(where: { $0.1 != nil }), let text else { continue }
            // "2024:06:15 23:30:05.25+09:00"
            let clock = text.prefix(19).replacingOccurrences(of: ":", with: "-", options: [], range: text.startIndex..<text.index(text.startIndex, offsetBy: 10))
            var rest = text.dropFirst(19)
            var fraction = 0.0
            if rest.first == "." {
                let digits = rest.dropFirst().prefix { $0.isNumber }
                fraction = Double("0." + digits) ?? 0
                rest = rest.dropFirst(1 + digits.count)
            }
            let offset = rest.isEmpty || tag == "FileModifyDate" ? nil : String(rest)
            expected.append(Expected(name: name, clock: String(clock), offset: offset, fraction: fraction, tag: tag))
        }
        #expect(expected.count == names.count, "the oracle: \(read.stdout) \(read.stderr)")
        return expected.sorted { $0.name < $1.name }
    }

    /// A home of its own for each run of the shell: config, ledger, pictures.
    final class Home {
        let folder: TemporaryFolder
        var path: String { folder.path }
        init(_ label: String) throws { folder = try TemporaryFolder(label) }
        var environment: [String: String] {
            ["TZ": CaptureTimeCorpusTests.zone, "HOME": path, "XDG_DATA_HOME": path + "/data", "XDG_CONFIG_HOME": path + "/config"]
        }
    }

    static func shell(_ url: String, _ commands: String, home: Home) throws -> ProcessResult {
        try ProcessRunner.run(
            BuildProducts.mediashell, ["--camera", url, "-c", commands], environment: home.environment, timeout: 120)
    }

    /// Every command gives each file the oracle's time.
    static func checkEveryCommand(_ url: String, expected: [Expected]) throws {
        let home = try Home("msh-dates-\(url.prefix(3))")
        let names = expected.map(\.name)
        let info = names.map { "info \($0)" }.joined(separator: "; ")
        let look = try shell(
            url, "cd DCIM/100MEDIA; ls --json; ls -l; \(info); import --list; import -n --to \(home.path)/dry/%Y-%m-%d/%H%M%S-%f; du /",
            home: home)
        #expect(look.status == 0, "\(url): \(look.stderr)")
        let out = look.stdout
        // ls --json: the first thing printed, an array.
        let jsonEnd = try #require(out.range(of: "\n]\n"))
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(out[..<jsonEnd.upperBound].utf8)) as? [[String: Any]])
        let lines = out[jsonEnd.upperBound...].split(separator: "\n").map(String.init)
        for file in expected {
            let object = listed.first { $0["name"] as? String == file.name }
            let date = object?["date"] as? String ?? ""
            #expect(date.prefix(19) == file.clock.replacingOccurrences(of: " ", with: "T"), "\(url) ls --json \(date): \(file)")
            if let offset = file.offset { #expect(date.hasSuffix(offset), "\(url) ls --json \(date): \(file)") }
            #expect(object?["datePending"] == nil, "\(url): \(file.name) still pending after the listing read it")
            // ls -l: the minute, unmarked, before the name.
            #expect(
                lines.contains { $0.hasPrefix(file.minute + " ") && $0.hasSuffix(" " + file.name) },
                "\(url) ls -l: \(file) in \(lines)")
            // info: the taken row, to the second, with the offset the file wrote.
            let taken = lines.filter { $0.hasPrefix("taken:") }
            #expect(
                taken.contains { $0.contains(file.clock + (file.offset.map { " " + $0 } ?? "")) },
                "\(url) info: \(file) in \(taken)")
            // import --list: the minute beside the path.
            #expect(
                lines.contains { $0.hasPrefix("/DCIM/100MEDIA/\(file.name) ") && $0.hasSuffix(file.minute) },
                "\(url) import --list: \(file)")
            // import --dry-run: the pattern's day and time, to the second.
            let time = file.clock.suffix(8).replacingOccurrences(of: ":", with: "")
            #expect(
                lines.contains { $0.hasSuffix("/dry/\(file.day)/\(time)-\(file.name)") },
                "\(url) import -n: \(file) in \(lines.filter { $0.contains("->") })")
        }
        #expect(lines.contains { $0.contains("1 with a nonsense date") }, "\(url) import -n counts IMG_0003's 1970")
        #expect(lines.contains { $0.hasSuffix("new (\(expected.count))  total") || $0.contains("new (\(expected.count))") }, "\(url) du: \(lines)")

        // find --since/--until: each day keeps exactly its files.
        let days = Set(expected.map(\.day)).sorted()
        let finds = days.map { "echo == \($0); find --since \($0) --until \($0) /DCIM" }.joined(separator: "; ")
        let found = try shell(url, finds, home: home)
        #expect(found.status == 0, "\(url): \(found.stderr)")
        var byDay: [String: [String]] = [:]
        var current = ""
        for line in found.stdout.split(separator: "\n") {
            if line.hasPrefix("== ") { current = String(line.dropFirst(3)) } else { byDay[current, default: []].append(String(line.split(separator: "/").last ?? "")) }
        }
        for day in days {
            #expect(byDay[day, default: []].sorted() == expected.filter { $0.day == day }.map(\.name).sorted(), "\(url) find \(day): \(byDay)")
        }

        // fetch: each file carries its capture time as its modification time (read from the file once it came).
        let fetched = home.path + "/fetched"
        let fetch = try shell(url, "cd DCIM/100MEDIA; fetch -o \(fetched) *", home: home)
        #expect(fetch.status == 0, "\(url): \(fetch.stderr)")
        for file in expected {
            let attributes = try? FileManager.default.attributesOfItem(atPath: fetched + "/" + file.name)
            let mtime = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? .nan
            #expect(abs(mtime - file.instant) < 1, "\(url) fetch: \(file.name) mtime \(mtime), expected \(file.instant) for \(file)")
        }

        // import: each file under the day it was shot, its mtime the capture time to the second, the
        // ledger keeping the time; then nothing new.
        let pictures = home.path + "/pictures"
        let run = try shell(url, "import --to \(pictures)/%Y/%Y-%m-%d; du /", home: home)
        #expect(run.status == 0, "\(url): \(run.stderr)")
        #expect(run.stdout.contains("7 fetched") || run.stdout.contains("\(expected.count) fetched"), "\(url): \(run.stdout)")
        #expect(run.stdout.contains("nothing new"), "\(url) du after the import: \(run.stdout)")
        for file in expected {
            let path = "\(pictures)/\(file.day.prefix(4))/\(file.day)/\(file.name)"
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let mtime = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? .nan
            #expect(abs(mtime - file.instant) < 1, "\(url) import: \(path) mtime \(mtime), expected \(file.instant) for \(file)")
        }
        let ledgerFolder = home.path + "/data/mediashell/imports"
        let ledger = try #require(try FileManager.default.contentsOfDirectory(atPath: ledgerFolder).first { $0.hasSuffix(".json") })
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ledgerFolder + "/" + ledger))) as? [String: Any])
        let entries = document["entries"] as? [[String: Any]] ?? []
        for file in expected where file.tag != "FileModifyDate" {
            let taken = entries.first { $0["name"] as? String == file.name }?["taken"] as? String ?? ""
            if file.tag == "QuickTime:CreateDate" {
                // Kept as the UTC instant the header holds.
                #expect(taken.hasSuffix("Z"), "\(url) ledger: \(taken) for \(file)")
            } else {
                #expect(taken.prefix(19) == file.clock.replacingOccurrences(of: " ", with: "T"), "\(url) ledger: \(taken) for \(file)")
            }
        }
    }

    @Test func everyCommandReadsTheOraclesTimeOverEveryKindOfCamera() throws {
        let card = try TemporaryFolder("msh-dates-card")
        guard let expected = try Self.makeCorpus(card.path) else { return }
        // What the oracle says, as a check on the corpus itself.
        #expect(expected.map(\.tag) == [
            "SRT", "SRT", "EXIF", "EXIF", "FileModifyDate", "EXIF", "Keys:CreationDate", "QuickTime:CreateDate",
        ], "\(expected)")
        try Self.checkEveryCommand("dir:" + card.path, expected: expected)
        try Self.checkEveryCommand("sim:" + card.path, expected: expected)
        let server = try ServeProcess(arguments: [card.path], environment: ["TZ": Self.zone])
        defer { _ = server.stop() }
        try Self.checkEveryCommand("ptpip:127.0.0.1:\(server.port)", expected: expected)
    }

    /// A camera whose clock is three hours behind: said once when it opens, with the shift that corrects
    /// it; `import --shift +3h` names the folders, sets the mtimes and keeps the ledger's times shifted, and
    /// says so. A photo shot at 22:45 by that clock was taken at 01:45 the next day.
    @Test func aCameraClockThreeHoursBehindIsSaidAndShiftCorrectsIt() throws {
        let card = try TemporaryFolder("msh-dates-clock")
        guard let expected = try Self.makeCorpus(card.path) else { return }
        let server = try ServeProcess(arguments: [card.path], environment: ["TZ": Self.zone])
        defer { _ = server.stop() }
        let url = "ptpip:127.0.0.1:\(server.port)"
        let home = try Home("msh-dates-clock-home")
        let behind = Date().addingTimeInterval(-3 * 3600)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: Self.zone)
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let set = try Self.shell(url, "prop datetime '\(f.string(from: behind))'", home: home)
        #expect(set.status == 0, "\(set.stderr)")

        let opened = try Self.shell(url, "ls", home: home)
        let warnings = opened.stderr.split(separator: "\n").filter { $0.contains("the camera's clock") }
        #expect(warnings.count == 1, "\(opened.stderr)")
        #expect(
            warnings.first?.contains("the camera's clock is 3 h behind this computer; 'sync-time' sets it, 'import --shift +3h' corrects this card's times") == true,
            "\(opened.stderr)")

        let pictures = home.path + "/pictures"
        let run = try Self.shell(url, "import --shift +3h --to \(pictures)/%Y-%m-%d", home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("capture times shifted by +3h"), "\(run.stdout)")
        for file in expected {
            var shifted = file
            shifted.clock = Self.clock(Expected.wall(file.clock) + 3 * 3600)
            let path = "\(pictures)/\(shifted.day)/\(file.name)"
            let mtime = ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? .nan
            #expect(abs(mtime - shifted.instant) < 1, "\(path): mtime \(mtime), expected \(shifted.instant) for \(shifted)")
        }
        #expect(FileManager.default.fileExists(atPath: pictures + "/2024-06-17/IMG_0007.JPG"))

        // The same correction as this camera's own setting, kept in its ledger: later imports use it.
        let saved = try Self.shell(url, "set time-shift +3h; set time-shift", home: home)
        #expect(saved.stdout.contains("time-shift +3h (this camera's"), "\(saved.stdout) \(saved.stderr)")
        let again = try Self.shell(url, "import --again --to \(pictures)-again/%Y-%m-%d", home: home)
        #expect(again.stdout.contains("capture times shifted by +3h"), "\(again.stdout)")
        #expect(FileManager.default.fileExists(atPath: pictures + "-again/2024-06-17/IMG_0007.JPG"))
    }

    static func clock(_ wall: Double) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: Date(timeIntervalSince1970: wall))
    }
}
