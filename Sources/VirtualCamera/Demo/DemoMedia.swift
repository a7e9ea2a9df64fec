import Foundation

/// Finds the demo card's source media (the `DemoMedia` resource folder) without trapping when the
/// program was moved away from its resource bundle: next to the executable first, then an explicit
/// `MEDIASHELL_DEMO_MEDIA` folder, then the source tree this module was built from.
public enum DemoMedia {
    public static func folder() -> String? {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["MEDIASHELL_DEMO_MEDIA"] { candidates.append(env) }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let executableDir = executable.deletingLastPathComponent()
        for dir in [executableDir, Bundle.main.bundleURL] {
            candidates.append(dir.appendingPathComponent("mediashell_VirtualCamera.resources/DemoMedia").path)
        }
        // Test bundles live next to the resource bundles in the build folder.
        for bundle in Bundle.allBundles {
            candidates.append(
                bundle.bundleURL.deletingLastPathComponent()
                    .appendingPathComponent("mediashell_VirtualCamera.resources/DemoMedia").path)
        }
        candidates.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("DemoMedia").path)
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/README.txt") }
    }

    /// Path of one demo file, nil when it is not there.
    public static func file(_ name: String) -> String? {
        guard let folder = folder() else { return nil }
        let path = folder + "/" + name
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}
