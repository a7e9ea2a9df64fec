import Foundation
import PTP
import TestSupport
import Testing

@testable import PTPUSB

/// The shell binary itself over USB, against QEMU's `usb-mtp` in the VM of `scripts/test-usb-vm` (see
/// USBVMTests for the devices): `ls`, `fetch *` byte-identical, a download resumed after `kill -9`, and
/// delete, on the read-only card and on the writable one; `props` and `prop` on what it offers. The binary is MEDIASHELL_USB_VM_SHELL.
@Suite(
    "The shell over USB against QEMU's MTP device (in the VM)", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["MEDIASHELL_USB_VM"] == "1", "set by scripts/test-usb-vm"), .tags(.process), .notInFastRun)
struct USBVMShellTests {
    static var shell: String { USBVMTests.environment["MEDIASHELL_USB_VM_SHELL"] ?? "" }

    /// The `usb:BUS,ADDR` URL of the QEMU device whose storage is described as `storageDescription`.
    static func url(of storageDescription: String) throws -> String {
        let device = try USBVMTests.open(storageDescription: storageDescription)
        defer { device.close() }
        let camera = try #require(device.transport.camera)
        return "usb:\(camera.bus),\(camera.address)"
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the shell on `camera` with `commands`, downloads going to `downloads`; bounded (TCG is slow).
    /// With `trace`, the run writes a `--debug-ptp` trace there.
    static func run(
        _ camera: String, _ commands: String, downloads: String, trace: String? = nil, environment: [String: String] = [:],
        timeout: TimeInterval = 300
    ) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["--camera", camera, "--download-dir", downloads] + (trace.map { ["--debug-ptp", $0] } ?? []) + ["-c", commands]
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"].merging(environment) { $1 }) { $1 }
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let exited = Mailbox<Void>()
        process.terminationHandler = { _ in exited.put(()) }
        try process.run()
        let outData = LockedBox(Data())
        let errData = LockedBox(Data())
        let readers = DispatchGroup()
        for (pipe, box) in [(out, outData), (err, errData)] {
            readers.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                box.mutate { $0 = data }
                readers.leave()
            }
        }
        if exited.take(timeout: timeout) == nil {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.take(timeout: 10)
        }
        _ = readers.wait(timeout: .now() + 10)
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData.value, as: UTF8.self),
            stderr: String(decoding: errData.value, as: UTF8.self))
    }

    static func scratch(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("usbvm-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The regular files directly in `folder` of a card, as QEMU serves them (no dot-files, no symlinks).
    static func files(in folder: String, of card: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: card + "/" + folder).filter { name in
            guard !name.hasPrefix(".") else { return false }
            let type = try FileManager.default.attributesOfItem(atPath: card + "/" + folder + "/" + name)[.type] as? FileAttributeType
            return type == .typeRegular
        }.sorted()
    }

    static func same(_ a: String, _ b: String) -> Bool {
        guard let x = FileManager.default.contents(atPath: a), let y = FileManager.default.contents(atPath: b) else { return false }
        return x == y
    }

    /// `props` and `prop` say what QEMU's responder offers: its DeviceInfo's device properties, each
    /// described, or (QEMU lists none) one clear sentence and an empty JSON list, never a failure of `props`.
    @Test func propsAndPropSayWhatTheDeviceOffers() throws {
        let device = try USBVMTests.open(storageDescription: "RO-CARD")
        let listed = device.session.deviceInfo.devicePropertiesSupported
        let describes = device.session.supports(.getDevicePropDesc)
        device.close()
        let camera = try Self.url(of: "RO-CARD")
        let downloads = try Self.scratch("props")
        defer { try? FileManager.default.removeItem(atPath: downloads) }
        let result = try Self.run(camera, "props; props --json; -prop battery", downloads: downloads)
        print("usb-vm: QEMU lists \(listed.count) device properties (GetDevicePropDesc: \(describes)); props said: \(result.stdout)")
        #expect(result.status == 0, "\(result.stderr)")
        if listed.isEmpty {
            #expect(result.stdout.contains("this camera reports no settings"), "\(result.stdout)")
            #expect(result.stdout.split(separator: "\n").contains("[]"), "\(result.stdout)")
            #expect(result.stderr.contains("prop: this camera reports no settings"), "\(result.stderr)")
        } else if describes {
            #expect(result.stdout.contains("\"code\""), "\(result.stdout)")
        } else {
            #expect(result.stderr.contains("cannot describe them"), "\(result.stderr)")
        }
    }

    @Test func shellListsFetchesAndIsRefusedADeleteOnTheReadOnlyCard() throws {
        let camera = try Self.url(of: "RO-CARD")
        let downloads = try Self.scratch("ro")
        defer { try? FileManager.default.removeItem(atPath: downloads) }
        let folders = ["MISC", "DCIM/100TEST"]
        let started = Date()
        let result = try Self.run(
            camera, "storages; " + folders.map { "cd /\($0); ls; fetch *" }.joined(separator: "; ")
                + "; cd /MISC; -delete --force one.bin", downloads: downloads)
        print("usb-vm: shell ls and fetch * of \(folders) on RO-CARD in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("RO-CARD") || result.stdout.contains("ID"), "\(result.stdout)")
        // The read-only card refuses the delete clearly, and the file stays.
        #expect(result.stderr.contains("one.bin") && result.stderr.contains("read-only"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: USBVMTests.card + "/MISC/one.bin"))
        let lines = Set(result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for folder in folders {
            let names = try Self.files(in: folder, of: USBVMTests.card)
            #expect(!names.isEmpty)
            for name in names {
                #expect(lines.contains(name), "\(folder)/\(name) not listed")
                #expect(Self.same(downloads + "/" + name, USBVMTests.card + "/\(folder)/\(name)"), "\(folder)/\(name) differs")
            }
        }
        #expect(lines.contains("sub/"), "the subfolder is listed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: downloads).allSatisfy { !$0.hasSuffix(".part") })
    }

    /// `kill -9` mid-download leaves a `.part`; the next `fetch` continues it over USB and the file is whole.
    @Test(arguments: ["RO-CARD", "RW-CARD"])
    func shellResumesADownloadAfterKill(_ card: String) throws {
        let camera = try Self.url(of: card)
        let downloads = try Self.scratch("resume")
        defer { try? FileManager.default.removeItem(atPath: downloads) }
        let (folder, name) = card == "RO-CARD" ? ("DCIM/100TEST/sub/deeper", "big-video.mp4") : ("DCIM", "resume-me.bin")
        let original = (card == "RO-CARD" ? USBVMTests.card : USBVMTests.writableCard) + "/\(folder)/\(name)"
        let part = downloads + "/" + name + ".part"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.shell)
        process.arguments = ["--camera", camera, "--download-dir", downloads, "-c", "set limit-rate 1M; cd /\(folder); fetch \(name)"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Woken as the .part grows (inotify on the download folder) or the shell ends, for at most 120 s.
        var size: UInt64 = 0
        _ = try waitForFile(in: downloads, until: { size = fileSize(part); return size >= 1 << 20 }, orEndOf: process, timeout: 120)
        kill(process.processIdentifier, SIGKILL)
        _ = waitForExit(process, timeout: 10)
        let total = (try FileManager.default.attributesOfItem(atPath: original)[.size] as? NSNumber)?.uint64Value ?? 0
        #expect(size >= 1 << 20 && size < total, "the .part had \(size) of \(total) bytes at the kill")

        let result = try Self.run(camera, "cd /\(folder); fetch \(name)", downloads: downloads)
        print("usb-vm: \(card) \(name): killed at \(size) of \(total) bytes; then: \(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("continued from"), "\(result.stdout)")
        #expect(Self.same(downloads + "/" + name, original))
        #expect(!FileManager.default.fileExists(atPath: part))
    }

    @Test func shellListsFetchesAndDeletesOnTheWritableCard() throws {
        let camera = try Self.url(of: "RW-CARD")
        let downloads = try Self.scratch("rw")
        defer { try? FileManager.default.removeItem(atPath: downloads) }
        let card = USBVMTests.writableCard
        let victim = card + "/DCIM/shell-delete-me.jpg"
        #expect(FileManager.default.fileExists(atPath: victim), "scripts/test-usb-vm puts it there")
        let trace = downloads + "/usb-trace.txt"
        let result = try Self.run(
            camera, "cd /DCIM; ls; fetch keep.jpg; delete --force shell-delete-me.jpg; ls", downloads: downloads, trace: trace)
        #expect(result.status == 0, "\(result.stderr)")
        // --debug-ptp records the USB session as it does the others.
        let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        for line in [
            "> command  OpenSession (0x1002) tid=0", "DeviceInfo: manufacturer \"QEMU\" model \"QEMU filesharing\"",
            "< data     GetObject", "> command  DeleteObject (0x100B)", "> command  CloseSession (0x1003)",
        ] {
            #expect(text.contains(line), "the USB trace has no '\(line)'")
        }
        #expect(result.stdout.contains("deleted /DCIM/shell-delete-me.jpg"), "\(result.stdout)")
        #expect(Self.same(downloads + "/keep.jpg", card + "/DCIM/keep.jpg"))
        #expect(!FileManager.default.fileExists(atPath: victim), "the file is still on the card")
        let parts = result.stdout.components(separatedBy: "deleted /DCIM/shell-delete-me.jpg\n")
        #expect(parts.count == 2, "\(result.stdout)")
        #expect(parts.first?.contains("shell-delete-me.jpg") == true, "listed before the delete")
        #expect(parts.last?.contains("shell-delete-me.jpg") == false, "not listed after it")
        print("usb-vm: shell deleted shell-delete-me.jpg on RW-CARD")
    }
}
