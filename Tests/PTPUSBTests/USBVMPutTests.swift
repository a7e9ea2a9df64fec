import Foundation
import Testing

/// `put` over USB (issue 13): the shell uploads a file to QEMU's writable usb-mtp card (SendObjectInfo,
/// then SendObject) and it lands byte-identical in the card's folder; the shell then deletes it again.
/// On the read-only card the upload fails in one line and leaves nothing. Runs in the VM only.
extension USBVMShellTests {
    @Test func shellPutsAFileOnTheWritableCardAndIsRefusedOnTheReadOnlyOne() throws {
        let local = try Self.scratch("put")
        defer { try? FileManager.default.removeItem(atPath: local) }
        let name = "put-by-shell.bin"
        // Not a multiple of 512: the last packet is short.
        try Data((0..<200_001).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ ($0 >> 9)) })
            .write(to: URL(fileURLWithPath: local + "/" + name))

        let camera = try Self.url(of: "RW-CARD")
        let onCard = USBVMTests.writableCard + "/DCIM/" + name
        let put = try Self.run(camera, "cd /DCIM; put \(local)/\(name); ls", downloads: local)
        #expect(put.status == 0, "\(put.stderr)")
        #expect(put.stdout.contains("-> /DCIM/\(name) (200 kB)"), "\(put.stdout)")
        #expect(Self.same(onCard, local + "/" + name), "the uploaded file differs")
        print("usb-vm: put \(name) on RW-CARD: \(put.stdout.split(separator: "\n").first ?? "")")
        let removed = try Self.run(camera, "cd /DCIM; delete --force \(name)", downloads: local)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: onCard))

        let readOnly = try Self.run(try Self.url(of: "RO-CARD"), "put \(local)/\(name)", downloads: local)
        print("usb-vm: put on RO-CARD: status \(readOnly.status); \(readOnly.stderr)")
        #expect(readOnly.status == 1)
        #expect(readOnly.stderr.split(separator: "\n").count == 1, "\(readOnly.stderr)")
        #expect(!FileManager.default.fileExists(atPath: USBVMTests.card + "/" + name))
    }
}
