import Foundation

/// Why this user may not open a USB camera, as facts: whether mediashell's udev rule is installed (and
/// where), whether udev applied it to this device, and whether the user is in the rule's group. Read
/// below the same root as `USBHolderScan` (a fake one in tests). `USBCameraError` puts them into words.
public struct USBAccess: Equatable, Sendable {
    /// The rule file's name, in every udev rules folder.
    public static let ruleName = "60-mediashell.rules"
    /// The group the rule gives the device node to, for machines without a seat.
    public static let group = "plugdev"

    /// Where the rule is installed (`/usr/lib/udev/rules.d/60-mediashell.rules`); nil: nowhere.
    public var installedRule: String?
    /// udev's database says the rule matched this device (`ID_MEDIASHELL=1`).
    public var deviceTagged: Bool
    /// The user is in `group`; nil when this machine has no such group.
    public var inGroup: Bool?

    public init(installedRule: String? = nil, deviceTagged: Bool = false, inGroup: Bool? = nil) {
        self.installedRule = installedRule
        self.deviceTagged = deviceTagged
        self.inGroup = inGroup
    }
}

extension USBHolderScan {
    /// The udev rules folders, most local first (as udev reads them, a file in /etc overrides the others).
    static let ruleFolders = ["/etc/udev/rules.d", "/run/udev/rules.d", "/usr/local/lib/udev/rules.d", "/usr/lib/udev/rules.d", "/lib/udev/rules.d"]

    /// What stands between this user and `camera`'s device node.
    public func access(of camera: USBCameraDescription, groups: [UInt32] = USBHolderScan.processGroups()) -> USBAccess {
        let files = FileManager.default
        let rule = Self.ruleFolders.map { "\($0)/\(USBAccess.ruleName)" }.first { files.fileExists(atPath: root + $0) }
        let tagged = udevProperty("ID_MEDIASHELL", of: camera) == "1"
        return USBAccess(installedRule: rule, deviceTagged: tagged, inGroup: groupID(USBAccess.group).map(groups.contains))
    }

    /// The numeric id of `name` in `/etc/group` (below the root); nil when there is no such group.
    func groupID(_ name: String) -> UInt32? {
        guard let data = FileManager.default.contents(atPath: root + "/etc/group") else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count >= 3, fields[0] == name { return UInt32(fields[2]) }
        }
        return nil
    }

    /// This process's groups (its primary one and the supplementary ones).
    public static func processGroups() -> [UInt32] {
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let got = getgroups(count, &groups)
        return [getegid()] + groups.prefix(Int(max(got, 0)))
    }
}
