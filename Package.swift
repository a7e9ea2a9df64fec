// swift-tools-version:6.0
// mediashell: a shell for the photos and videos on a camera or drone.
// Layers, dependencies pointing one way (scripts/check-layers holds the table and checks every import):
//   C boundary (CEditLine, CLibUSB, CTurboJPEG, CMediaShellShim), Failures (what kind of failure an error is)
//   POSIX (system calls, sockets, threads, processes)
//   PTP (pure protocol) <- PTPIP, PTPUSB (transports); MediaFormats (pure: ISO-BMFF, JPEG/EXIF); Imaging
//   VirtualCamera (a PTP responder over PTP's responder transport)
//   MediaManager (a camera over PTP's initiator transport: catalog, downloads, rate limits) <- Import, Thumbnails
//   Playback (over MediaFormats' byte sources)
//   Connectors (camera URL -> transport + camera: the only module that knows every transport)
//   TerminalKit (line editing, words, output) <- CommandKit (command specs, parsing, help, completion)
//   Words (what the user reads and sees: a sentence for every error, listings, details, thumbnails shown)
//   Transfers (batches at the prompt and jobs in the background, paced under a rate limit; over Words)
//   Shell (commands, interpreter, session, jobs), Serve, Mount (the card as a folder, over CFuse) <- mediashell
import PackageDescription

let package = Package(
    name: "mediashell",
    products: [
        .executable(name: "mediashell", targets: ["mediashell"]),
    ],
    targets: [
        // C boundary
        .systemLibrary(
            name: "CEditLine", pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]),
        .systemLibrary(
            name: "CLibUSB", pkgConfig: "libusb-1.0",
            providers: [.apt(["libusb-1.0-0-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CXXHash", pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CFuse", pkgConfig: "fuse3",
            providers: [.apt(["libfuse3-dev"])]),
        .target(name: "CMediaShellShim"),

        // What kind of failure an error is (busy, disconnected, timed out, ...): the categories every module's
        // errors say they are, so that callers switch on a case; depends on nothing
        .target(name: "Failures"),
        // Text for a terminal, computed: safe display of names from devices, cell widths, columns and tables,
        // sizes and dates, shell-escaped names, time shifts, words and globs; no I/O, depends on nothing
        .target(name: "TextKit"),
        // The one seam with the C library for system calls: errno, sockets, threads, child processes
        .target(name: "POSIX", dependencies: ["Failures", "CMediaShellShim"]),

        // Protocol and transports. PTPFacts: PTP's codes, datasets decoded from bytes, its errors and messages, computed
        // (no I/O); PTP: sessions, transports and traces over them
        .target(name: "PTPFacts", dependencies: ["Failures"]),
        .target(name: "PTP", dependencies: ["PTPFacts", "POSIX"]),
        .target(name: "PTPIP", dependencies: ["PTP", "POSIX"]),
        .target(name: "PTPUSB", dependencies: ["PTP", "Failures", "POSIX", "CLibUSB"]),
        // Fujifilm's Wi-Fi framing (port 55740: Fuji's init packets, then USB-style containers), both sides
        .target(name: "FujiWiFi", dependencies: ["PTP", "Failures", "POSIX"]),

        // Finding cameras on the local network and announcing the virtual one: SSDP and multicast DNS
        .target(name: "Discovery", dependencies: ["POSIX"]),

        // Media containers parsed through random access to bytes the caller reads (memory, a camera, a file)
        .target(name: "MediaFormats", dependencies: ["Failures"]),

        // Pictures: JPEG decode/encode and scaling (libjpeg-turbo), and drawing them in a terminal
        .target(name: "Imaging", dependencies: ["CTurboJPEG"]),

        // Checksums from the field's libraries: XXH3-128, XXH3-64, XXH64 (libxxhash); SHA-256, SHA-1, MD5 and C4
        // IDs over SHA-512 (libcrypto)
        .target(name: "Checksums", dependencies: ["CXXHash", "CCrypto"]),
        // The facts of the modules that talk to cameras and disks (files listed, catalog status, camera URL and
        // summary, the errors of downloads, imports, playback, thumbnails and opens), which Words reads; no I/O
        .target(name: "CameraFacts", dependencies: ["PTPFacts", "MediaFormats", "Checksums", "Failures"]),
        .target(name: "TerminalGraphics", dependencies: ["Imaging"]),

        // The terminal toolkit: line editing, word scanning, completion matching, output and width; knows
        // nothing of cameras, so another shell could use it
        .target(name: "TerminalKit", dependencies: ["TextKit", "POSIX", "CEditLine", "CMediaShellShim"]),
        // The command framework: specs, parsing into typed values, help, completion; any program's commands
        .target(name: "CommandKit", dependencies: ["TerminalKit"]),

        // The virtual camera: a PTP responder serving a folder or a demo card
        .target(
            name: "VirtualCamera", dependencies: ["PTP", "POSIX", "MediaFormats", "Imaging"],
            resources: [.copy("DemoMedia")]),

        // What the shell talks to
        .target(name: "MediaManager", dependencies: ["CameraFacts", "PTP", "Failures", "POSIX", "MediaFormats", "Checksums"]),
        .target(name: "Playback", dependencies: ["CameraFacts", "MediaFormats", "POSIX"]),
        // Thumbnails: the fallback policy (device, EXIF, .THM, the first keyframe of an .LRF through ffmpeg)
        .target(name: "Thumbnails", dependencies: ["CameraFacts", "MediaManager", "MediaFormats", "PTP", "Failures", "POSIX"]),
        // Importing a card: the ledger, destination patterns, the clash policy, batches with totals
        .target(name: "Import", dependencies: ["CameraFacts", "MediaManager", "MediaFormats", "PTP", "Failures", "POSIX", "Checksums"]),
        // Batches of downloads: their pace under a rate limit, the batches run at the prompt (fetch, import,
        // capture --fetch, watch) over what they need of the shell (BatchHost), and jobs run in the background
        // (`fetch ... &`), whose endings are facts JobWords says
        .target(
            name: "Transfers",
            dependencies: ["MediaManager", "Import", "PTP", "Failures", "POSIX", "TerminalKit", "CommandKit", "Words"]),
        // A camera URL to a transport and a camera
        .target(
            name: "Connectors",
            dependencies: [
                "CameraFacts", "MediaManager", "MediaFormats", "PTP", "Failures", "POSIX", "PTPIP", "PTPUSB",
                "FujiWiFi", "VirtualCamera", "Discovery",
            ]),
        // What the user reads, made from the facts below: a sentence for every error (what to do added), the
        // listings and details of files, camera events, batch summaries; the shell and the programs beside it
        .target(
            name: "Words",
            dependencies: [
                "CameraFacts", "PTPFacts", "TextKit", "MediaFormats", "Checksums", "Failures", "Imaging",
                "TerminalGraphics",
            ]),
        .target(
            name: "Shell",
            dependencies: [
                "MediaManager", "Connectors", "Import", "Thumbnails", "Playback", "PTP", "TerminalGraphics", "Checksums",
                "Imaging", "MediaFormats", "CommandKit", "TerminalKit", "Failures", "POSIX", "Transfers", "Mount", "Words",
            ]),
        // The virtual camera as a program of its own: `mediashell serve`
        .target(
            name: "Serve",
            dependencies: ["PTP", "PTPIP", "PTPUSB", "POSIX", "FujiWiFi", "VirtualCamera", "Thumbnails", "CommandKit", "TerminalKit", "Discovery"]),
        // The camera as a folder: `mediashell mount` (libfuse3's path API over the catalog, partial reads with
        // read-ahead into a bounded cache, new files spooled and sent on close)
        .target(
            name: "Mount",
            dependencies: ["MediaManager", "Connectors", "PTP", "POSIX", "Failures", "CommandKit", "TerminalKit", "CFuse"]),
        // The entry: picks the program (the shell, serve, mount, devices)
        .executableTarget(name: "mediashell", dependencies: ["Shell", "Serve", "Mount", "CommandKit", "TerminalKit"]),

        // Tests: the doubles and helpers every test target shares (lock box, seeded generators, temporary
        // folders, bounded waits, external tools); a library only test targets link, never the product.
        .target(name: "TestSupport", dependencies: ["POSIX", "PTP", "MediaManager", "MediaFormats", "Checksums"], path: "Tests/TestSupport"),
        .testTarget(name: "PTPTests", dependencies: ["TestSupport", "PTP", "POSIX"]),
        .testTarget(name: "POSIXTests", dependencies: ["TestSupport", "Failures", "POSIX"]),
        .testTarget(name: "PTPIPTests", dependencies: ["TestSupport", "PTP", "PTPIP", "POSIX"]),
        .testTarget(name: "DiscoveryTests", dependencies: ["TestSupport", "Discovery", "POSIX"]),
        .testTarget(name: "FujiWiFiTests", dependencies: ["TestSupport", "PTP", "FujiWiFi", "POSIX"]),
        .testTarget(name: "MediaFormatsTests", dependencies: ["TestSupport", "MediaFormats", "MediaManager", "POSIX"]),
        .testTarget(name: "VirtualCameraTests", dependencies: ["TestSupport", "PTP", "POSIX", "VirtualCamera", "MediaFormats"]),
        .testTarget(name: "MediaManagerTests", dependencies: ["TestSupport", "MediaManager", "Checksums", "Connectors", "MediaFormats", "PTP", "PTPIP", "FujiWiFi", "Failures", "POSIX", "VirtualCamera"]),
        .testTarget(name: "PlaybackTests", dependencies: ["TestSupport", "Playback", "MediaManager", "Connectors", "MediaFormats", "PTPIP", "Failures", "POSIX", "VirtualCamera", "Thumbnails", "Imaging"]),
        .testTarget(
            name: "ShellTests",
            dependencies: ["TestSupport", "Shell", "Serve", "Import", "MediaManager", "Connectors", "PTPIP", "PTPUSB", "Thumbnails", "Playback", "VirtualCamera", "PTP", "MediaFormats", "Imaging", "TerminalGraphics", "CommandKit", "TerminalKit", "Failures", "POSIX", "Transfers", "Words"]),
        .testTarget(name: "ImportTests", dependencies: ["TestSupport", "Import", "MediaFormats", "MediaManager", "Connectors", "PTP", "Failures", "POSIX", "VirtualCamera", "Checksums"]),
        .testTarget(name: "PTPUSBTests", dependencies: ["TestSupport", "PTPUSB", "CLibUSB", "PTP", "Failures", "POSIX", "Connectors", "MediaManager"]),
        .testTarget(name: "MountTests", dependencies: ["TestSupport", "Mount", "Connectors", "MediaManager", "POSIX"]),
        .testTarget(name: "TransfersTests", dependencies: ["Transfers", "MediaManager", "MediaFormats", "Import", "PTP", "Failures", "POSIX"]),
        .testTarget(name: "ImagingTests", dependencies: ["TestSupport", "Imaging"]),
        .testTarget(name: "TerminalGraphicsTests", dependencies: ["TestSupport", "TerminalGraphics", "Imaging"]),
        .testTarget(name: "RepositoryTests", dependencies: ["TestSupport"]),
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit", "POSIX"]),
        .testTarget(name: "WordsTests", dependencies: ["Words", "Import"]),
        .testTarget(name: "CommandKitTests", dependencies: ["CommandKit"]),
        .testTarget(name: "ChecksumsTests", dependencies: ["Checksums"]),
        .testTarget(name: "FailuresTests", dependencies: ["Failures"]),
        .testTarget(name: "TextKitTests", dependencies: ["TextKit"]),
        .testTarget(name: "PTPFactsTests", dependencies: ["PTPFacts", "Failures"]),
        .testTarget(name: "ThumbnailsTests", dependencies: ["TestSupport", "Thumbnails", "MediaFormats", "MediaManager", "VirtualCamera", "POSIX"]),
        .testTarget(name: "ServeTests", dependencies: ["TestSupport", "Serve", "VirtualCamera"]),
        .testTarget(name: "ConnectorsTests", dependencies: ["TestSupport", "Connectors", "PTPUSB", "MediaManager"]),
        .testTarget(name: "InteropTests", dependencies: ["TestSupport", "PTP", "PTPIP", "MediaFormats", "POSIX"]),
        // The fuzz targets' seeds (Fuzz/Corpus): written from what the tests send, checked to decode.
        .testTarget(name: "FuzzCorpusTests", dependencies: ["PTP", "PTPIP", "PTPUSB", "FujiWiFi", "VirtualCamera", "MediaFormats"]),
        .testTarget(name: "CameraFactsTests", dependencies: ["CameraFacts", "PTPFacts"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every Swift file sees the members only of the modules it imports itself (SE-0444, MemberImportVisibility),
// so that each module's imports, and Package.swift, say exactly what it uses.
for target in package.targets where target.type != .system && target.name != "CMediaShellShim" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
