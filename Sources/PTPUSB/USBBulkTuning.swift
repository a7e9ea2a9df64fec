import Foundation

/// How large the bulk transfers are and how many bulk-in transfers a data phase keeps queued on the bus.
/// Measured, not guessed: see the constants. `MEDIASHELL_USB_BULK=KIB,COUNT` (e.g. `1024,4`) overrides both
/// for a device that wants otherwise and for `scripts/bench-usb-vm --sweep`, which measures them.
public struct USBBulkTuning: Equatable, Sendable {
    public var transferSize: Int
    public var transfersInFlight: Int

    /// 512 KiB: measured by `scripts/bench-usb-vm --sweep` (a 64 MiB GetObject from QEMU's usb-mtp on xHCI,
    /// TCG, 2026-12-01, load average 6-7 on 2 cores): 16 KiB took 42.8 s, 256 KiB 23.1 s, 1 MiB 40.6 s, one
    /// transfer at a time; a second sweep (load 11) put 1 MiB at 43.6-82.7 s against 256 KiB at 27.1 s.
    /// 512 KiB, not in those sweeps, then beat 256 KiB reading a 256 MiB file through `mediashell mount` in
    /// the same VM (2026-12-03, load 4-7, three boots, runs interleaved): 23.7, 27.4, 25.1 and 31.9 s
    /// against 35.2, 35.3 and 29.9 s, with a quarter less of the mount's system time (the per-transfer
    /// work of usbfs in the guest); 1 MiB took 35.0 and 45.4 s, 2 MiB 36.7 s.
    public static let transferSize = 512 << 10
    /// 1: in the same sweeps, several in flight did not raise the rate on that device (256 KiB x2 32.3 s,
    /// x4 27.1 s, against 23.1 s for one; 1 MiB x2 and x4 48.3 s; 16 KiB x4 55.9 s), so a data phase reads
    /// one transfer at a time. The queue (`BulkInStream`) stays for devices where it pays: a host
    /// controller and camera fast enough that the turnaround between two transfers shows; try
    /// `MEDIASHELL_USB_BULK=256,4` and measure before changing this.
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
