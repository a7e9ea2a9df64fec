import Foundation
import TestSupport
import Testing

/// Issue 41 over USB (QEMU's `usb-mtp` in the VM of `scripts/test-usb-vm`): a `.part` is continued only
/// when proven to be a part of the very file asked for. Both cards hold `DCIM/twin.mp4`, of one size and
/// date and other bytes (two cards' clips of one name); each case ends byte-identical to the camera's file,
/// saying why it started again; `import --delete-after` deletes the writable card's clip only once the
/// copy is identical (the host checks it is gone).
@Suite(
    "Resumes proven over USB (in the VM)", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["MEDIASHELL_USB_VM"] == "1", "set by scripts/test-usb-vm"), .tags(.process), .notInFastRun)
struct USBVMResumeProofTests {
    static let name = "twin.mp4"
    static var readOnlyTwin: String { USBVMTests.card + "/DCIM/" + name }
    static var writableTwin: String { USBVMTests.writableCard + "/DCIM/" + name }

    /// Starts `command` on `card` (rate-limited) and kills it once its `.part` in `folder` holds 1 MiB.
    static func interrupt(_ command: String, on card: String, part: String, folder: String, environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: USBVMShellTests.shell)
        process.arguments = ["--camera", try USBVMShellTests.url(of: card), "--download-dir", folder, "-c", "set limit-rate 1M; cd /DCIM; " + command]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = try waitForFile(in: folder, until: { fileSize(part) >= 1 << 20 }, orEndOf: process, timeout: 120)
        kill(process.processIdentifier, SIGINT)
        #expect(waitForExit(process, timeout: 60), "the interrupted run did not end")
        #expect(fileSize(part) >= 1 << 20, "the .part had \(fileSize(part)) bytes")
    }

    static func fetch(on card: String, into folder: String) throws -> USBVMShellTests.Run {
        try USBVMShellTests.run(try USBVMShellTests.url(of: card), "cd /DCIM; fetch \(name)", downloads: folder)
    }

    @Test func keptPartsAreContinuedOnlyWhenProven() throws {
        let folder = try USBVMShellTests.scratch("proof")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let part = folder + "/" + Self.name + ".part"
        let copy = folder + "/" + Self.name
        func again(_ card: String, _ original: String, says: String?, _ label: String) throws {
            let run = try Self.fetch(on: card, into: folder)
            print("usb-vm: resume proof, \(label): \(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))")
            #expect(run.status == 0, "\(label): \(run.stderr)")
            #expect(USBVMShellTests.same(copy, original), "\(label): not the camera's file")
            if let says {
                #expect(run.stdout.contains("started again from 0") && run.stdout.contains(says), "\(label): \(run.stdout)")
            } else {
                #expect(run.stdout.contains("continued from"), "\(label): \(run.stdout)")
            }
            #expect(!FileManager.default.fileExists(atPath: part))
            try FileManager.default.removeItem(atPath: copy)
        }
        // The other card's twin stopped, this one's asked for.
        try Self.interrupt("fetch \(Self.name)", on: "RO-CARD", part: part, folder: folder)
        try again("RW-CARD", Self.writableTwin, says: "was part of", "another card's clip")
        // No record (written by something else).
        let twin = try Data(contentsOf: URL(fileURLWithPath: Self.writableTwin))
        try twin.prefix(1 << 20).write(to: URL(fileURLWithPath: part))
        try again("RW-CARD", Self.writableTwin, says: "has no record", "no record")
        // Longer than the file.
        try (twin + twin).write(to: URL(fileURLWithPath: part))
        try again("RW-CARD", Self.writableTwin, says: "has no record", "longer than the file")
        // Changed on disk since it was written.
        try Self.interrupt("fetch \(Self.name)", on: "RW-CARD", part: part, folder: folder)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: part))
        try handle.seek(toOffset: 4_000)
        try handle.write(contentsOf: Data([twin[4_000] ^ 0xFF]))
        try handle.close()
        try again("RW-CARD", Self.writableTwin, says: "changed on disk", "changed on disk")
        // Stopped, and nothing else: continued, for one request of 4 KiB (timed in a trace of the run).
        try Self.interrupt("fetch \(Self.name)", on: "RW-CARD", part: part, folder: folder)
        let trace = folder + "/resume.trace"
        let run = try USBVMShellTests.run(
            try USBVMShellTests.url(of: "RW-CARD"), "cd /DCIM; fetch \(Self.name)", downloads: folder, trace: trace)
        #expect(run.status == 0 && run.stdout.contains("continued from"), "\(run.stdout)\(run.stderr)")
        #expect(USBVMShellTests.same(copy, Self.writableTwin))
        let lines = (try String(contentsOfFile: trace, encoding: .utf8)).split(separator: "\n")
        let check = lines.firstIndex { $0.contains("> command  GetPartialObject") && $0.hasSuffix(", 0x1000]") }
        let answered = check.flatMap { i in lines[(i + 1)...].first { $0.contains("< response") } }
        let seconds = { (line: Substring?) in line.flatMap { Double($0.split(separator: " ").first ?? "") } }
        #expect(check != nil, "no 4 KiB check in the trace")
        if let start = seconds(check.map { lines[$0] }), let end = seconds(answered) {
            print("usb-vm: resume proof: the 4 KiB check took \(String(format: "%.1f", (end - start) * 1000)) ms over USB")
        }
    }

    /// The read-only card's twin stopped in an import; the writable card's imported with --delete-after:
    /// started again, identical, and only then deleted from the card.
    @Test func importDeletesOnlyAnIdenticalCopy() throws {
        let folder = try USBVMShellTests.scratch("proof-import")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["XDG_DATA_HOME": folder + "/data"]
        let out = folder + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.writableTwin))
        try Self.interrupt("import --to \(out) \(Self.name)", on: "RO-CARD", part: out + "/" + Self.name + ".part", folder: out, environment: environment)
        let run = try USBVMShellTests.run(
            try USBVMShellTests.url(of: "RW-CARD"), "cd /DCIM; import --to \(out) --delete-after \(Self.name)", downloads: folder,
            environment: environment)
        print("usb-vm: resume proof, import --delete-after: \(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(run.status == 0, "\(run.stderr)")
        let identical = try Data(contentsOf: URL(fileURLWithPath: out + "/" + Self.name)) == original
        #expect(identical, "\(run.stdout)")
        #expect(run.stdout.contains("started again from 0"), "\(run.stdout)")
        #expect(run.stdout.contains("1 deleted from the camera"), "\(run.stdout)")
    }
}
