import Foundation
import PTP
import TestSupport
import Testing

@testable import PTPUSB

/// The shell killed in the middle of a download over USB (issue 17): with SIGKILL the device is left
/// mid-transaction and the next open must recover it; with SIGTERM the shell ends the fetch as Ctrl-C does
/// and leaves the device idle. Either way the very next `mediashell` opens the camera and the resumed fetch
/// is byte-identical. Runs in the VM only (part of the USBVMTests suite); uses `big-kill.bin` on RW-CARD.
extension USBVMTests {
    static let bigName = "big-kill.bin"

    /// The `mediashell` binary beside the test bundle.
    static var shellBinary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mediashell").path
    }

    /// The URL that opens the device serving RW-CARD.
    static func writableCardURL() throws -> String {
        let device = try open(storageDescription: "RW-CARD")
        defer { device.close() }
        return try #require(device.transport.camera?.url)
    }

    /// A started `mediashell`, its output going to files in `folder`.
    static func startShell(_ arguments: [String], in folder: String, name: String, debug: Bool = false) throws
        -> (process: Process, output: String, errors: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shellBinary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        if debug { environment["MEDIASHELL_USB_DEBUG"] = "1" }
        process.environment = environment
        let output = folder + "/\(name).out", errors = folder + "/\(name).err"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, output, errors)
    }

    /// Waits (bounded) until the process ends; false if it did not.
    static func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
        TestSupport.waitForExit(process, timeout: timeout)
    }

    static func size(_ path: String) -> UInt64 { fileSize(path) }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test(arguments: [SIGKILL, SIGTERM])
    func aFetchKilledMidTransferIsResumedByTheVeryNextOpen(signal: Int32) throws {
        let url = try Self.writableCardURL()
        let name = signal == SIGKILL ? "kill-9" : "sigterm"
        let folder = Self.results + "/" + name
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let original = Self.writableCard + "/" + Self.bigName
        let part = folder + "/" + Self.bigName + ".part"

        // No rate limit: the signal lands in the middle of a GetPartialObject.
        let first = try Self.startShell(
            ["--camera", url, "-c", "fetch -o \(folder) \(Self.bigName)"], in: folder, name: "first")
        // Woken as the .part grows (inotify on its folder) or the shell ends, for at most 120 s.
        _ = try waitForFile(in: folder, until: { Self.size(part) >= 2 << 20 }, orEndOf: first.process, timeout: 120)
        try #require(first.process.isRunning, "the fetch ended before the signal: \(Self.text(first.errors))")
        kill(first.process.processIdentifier, signal)
        try #require(Self.waitForExit(first.process, timeout: 60), "mediashell outlived signal \(signal)")
        let kept = Self.size(part)
        print("usb-vm: \(name): fetch of \(Self.bigName) stopped at \(kept) bytes; status \(first.process.terminationStatus) "
            + "(\(first.process.terminationReason == .uncaughtSignal ? "signal" : "exit")); stderr: \(Self.text(first.errors))")
        #expect(kept > 0)
        if signal == SIGTERM {
            #expect(first.process.terminationReason == .exit && first.process.terminationStatus == 143)
            #expect(Self.text(first.errors).contains(".part is kept"))
        }

        // The very next open: the same fetch continues the .part.
        let second = try Self.startShell(
            ["--camera", url, "-c", "fetch -o \(folder) \(Self.bigName)"], in: folder, name: "second", debug: true)
        try #require(Self.waitForExit(second.process, timeout: 300), "the resumed fetch did not end")
        let output = Self.text(second.output), errors = Self.text(second.errors)
        print("usb-vm: \(name): the next open and fetch: status \(second.process.terminationStatus); \(output)")
        for line in errors.split(separator: "\n") where line.hasPrefix("usb:") { print("usb-vm: \(name):   \(line)") }
        #expect(second.process.terminationStatus == 0, "\(errors)")
        #expect(output.contains("continued from"), "\(output)")
        let fetched = folder + "/" + Self.bigName
        #expect(FileManager.default.contentsEqual(atPath: fetched, andPath: original), "\(Self.bigName) differs from the card")
        if signal == SIGTERM {
            #expect(!errors.contains("recovering"), "SIGTERM left the device idle: no recovery needed")
        }
    }
}
