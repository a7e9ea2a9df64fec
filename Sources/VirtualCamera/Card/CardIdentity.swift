import Foundation

/// A serial number for a camera that serves a folder (`dir:`, `sim:PATH`, `serve DIR`), so that each card
/// has an import ledger of its own: two cards must never share one, and one card must keep its own across
/// mounts. The identity is the filesystem's UUID (a memory card's FAT/exFAT volume serial, as
/// `/dev/disk/by-uuid` names it) with the folder's place inside that filesystem, so the card mounted at
/// `/media/me/SD` today and `/media/me/SD1` tomorrow is the same card; where no UUID is known (a folder
/// on a filesystem without one, a system without `/dev/disk/by-uuid`), it is the folder's real path.
/// The serial is a hash of that: it says nothing of the path, and reads the same on every run.
public enum CardIdentity {
    /// `PREFIX-` and 12 hex digits, e.g. `DIR-3f09a1c4b2e7`.
    public static func serialNumber(forFolder path: String, prefix: String) -> String {
        prefix + "-" + String(hash(key(forFolder: path)) & 0xFFFF_FFFF_FFFF, radix: 16).leftPadded(to: 12)
    }

    /// `volume:UUID/place/in/it`, or `path:/real/path` when the filesystem's UUID is not known.
    static func key(forFolder path: String, uuidsFolder: String = "/dev/disk/by-uuid") -> String {
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        guard let device = deviceNumber(of: real) else { return "path:" + real }
        // The filesystem's root: the highest folder above `real` on the same device.
        var root = real
        while root != "/" {
            let parent = (root as NSString).deletingLastPathComponent
            guard deviceNumber(of: parent) == device else { break }
            root = parent
        }
        guard let uuid = volumeUUID(device: device, in: uuidsFolder) else { return "path:" + real }
        let place = root == "/" ? real : String(real.dropFirst(root.count))
        return "volume:" + uuid + (place.hasPrefix("/") ? place : "/" + place)
    }

    /// The device a path's filesystem lives on (st_dev).
    static func deviceNumber(of path: String) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.systemNumber] as? NSNumber)?.uint64Value
    }

    /// The UUID whose `/dev/disk/by-uuid` link leads to the block device `device` (st_rdev of the node).
    static func volumeUUID(device: UInt64, in folder: String) -> String? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        for name in names.sorted() {
            let node = URL(fileURLWithPath: folder + "/" + name).resolvingSymlinksInPath().path
            let attributes = try? FileManager.default.attributesOfItem(atPath: node)
            if (attributes?[.deviceIdentifier] as? NSNumber)?.uint64Value == device { return name }
        }
        return nil
    }

    /// FNV-1a, 64 bits: stable across runs and builds (Swift's Hasher is seeded per process).
    static func hash(_ text: String) -> UInt64 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
        return value
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
