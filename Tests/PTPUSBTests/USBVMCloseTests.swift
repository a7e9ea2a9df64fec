import Foundation
import PTP
import TestSupport
import Testing

@testable import PTPUSB

/// Ctrl-C over real USB (issue 10): closing the transport in the middle of a GetObject of `big-kill.bin`
/// (48 MiB on RW-CARD) ends the libusb transfer under way at once instead of waiting for the whole file,
/// and the next open gets the device, left mid-transaction, back in step. Runs in the VM only.
extension USBVMTests {
    @Test func closingMidDownloadEndsTheTransferAndTheNextOpenWorks() throws {
        let opened = try Self.open(storageDescription: "RW-CARD")
        let files = try Self.walk(opened.session, storage: opened.storage)
        let big = try #require(files[Self.bigName])
        let sink = USBCloseInterruptTests.FirstBytesSink()
        let outcome = USBCloseInterruptTests.Outcome()
        Thread {
            do { try opened.session.getObject(big.handle, into: sink) } catch { outcome.error = error }
            outcome.done.put(())
        }.start()
        try #require(sink.arrived.take(timeout: 120) != nil, "no data arrived")

        let closed = USBCloseInterruptTests.closeAside(opened.transport)
        #expect(closed.take(timeout: 30) != nil, "close waited for the download")
        #expect(outcome.done.take(timeout: 30) != nil, "the download still runs")
        print("usb-vm: closed mid-download after \(sink.count) of \(big.info.compressedSize) bytes: \(String(describing: outcome.error))")
        #expect(sink.count < Int(big.info.compressedSize), "the whole file arrived before the close")
        if case PTPError.connectionClosed = try #require(outcome.error) {} else {
            Issue.record("expected connectionClosed, got \(String(describing: outcome.error))")
        }

        let again = try Self.open(storageDescription: "RW-CARD")
        defer { again.close() }
        #expect(Set(try Self.walk(again.session, storage: again.storage).keys) == Set(files.keys))
    }
}
