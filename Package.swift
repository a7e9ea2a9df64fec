// swift-tools-version:6.0
// mediashell: a shell for the photos and videos on a camera or drone.
// Layers, dependencies pointing one way:
//   C boundary (CEditLine, CLibUSB, CMediaShellShim), POSIX (system calls, sockets, threads, processes)
//   PTP (pure protocol) <- PTPIP, PTPUSB (transports)
//   MediaFormats (pure: ISO-BMFF, JPEG/EXIF)
//   VirtualCamera (a PTP responder) <- MediaManager <- Playback, Import <- Shell <- mediashell
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
        .target(name: "CMediaShellShim"),

        // The one seam with the C library for system calls: errno, sockets, threads, child processes
        .target(name: "POSIX"),

        // Protocol and transports
        .target(name: "PTP"),
        .target(name: "PTPIP", dependencies: ["PTP", "POSIX"]),
        .target(name: "PTPUSB", dependencies: ["PTP", "POSIX", "CLibUSB", "CMediaShellShim"]),

        // Media containers read through random access
        .target(name: "MediaFormats"),

        // Pictures: JPEG decode/encode and scaling (libjpeg-turbo), and drawing them in a terminal
        .target(name: "Imaging", dependencies: ["CTurboJPEG"]),
        .target(name: "TerminalGraphics", dependencies: ["Imaging"]),

        // The virtual camera: a PTP responder serving a folder or a demo card
        .target(
            name: "VirtualCamera", dependencies: ["PTP", "POSIX", "MediaFormats", "Imaging"],
            resources: [.copy("DemoMedia")]),

        // What the shell talks to
        .target(name: "MediaManager", dependencies: ["PTP", "PTPIP", "PTPUSB", "VirtualCamera", "MediaFormats", "CMediaShellShim"]),
        .target(name: "Playback", dependencies: ["MediaManager", "MediaFormats", "POSIX"]),
        // Importing a card: the ledger, destination patterns, the clash policy, batches with totals
        .target(name: "Import", dependencies: ["MediaManager", "MediaFormats", "PTP", "CMediaShellShim"]),
        .target(
            name: "Shell",
            dependencies: [
                "MediaManager", "Playback", "Import", "PTPIP", "PTPUSB", "VirtualCamera", "TerminalGraphics", "Imaging",
                "MediaFormats", "POSIX", "CEditLine", "CMediaShellShim",
            ]),
        .executableTarget(name: "mediashell", dependencies: ["Shell"]),

        // Tests
        .testTarget(name: "PTPTests", dependencies: ["PTP"]),
        .testTarget(name: "POSIXTests", dependencies: ["POSIX"]),
        .testTarget(name: "PTPIPTests", dependencies: ["PTP", "PTPIP", "POSIX", "VirtualCamera"]),
        .testTarget(name: "MediaFormatsTests", dependencies: ["MediaFormats", "VirtualCamera"]),
        .testTarget(name: "VirtualCameraTests", dependencies: ["PTP", "VirtualCamera", "MediaFormats"]),
        .testTarget(name: "MediaManagerTests", dependencies: ["MediaManager", "MediaFormats", "PTP", "PTPIP", "VirtualCamera"]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "MediaManager", "MediaFormats", "PTPIP", "POSIX", "VirtualCamera"]),
        .testTarget(
            name: "ShellTests",
            dependencies: ["Shell", "MediaManager", "VirtualCamera", "PTP", "MediaFormats", "Imaging", "TerminalGraphics", "POSIX"]),
        .testTarget(name: "ImportTests", dependencies: ["Import", "MediaManager", "MediaFormats", "PTP", "VirtualCamera"]),
        .testTarget(name: "PTPUSBTests", dependencies: ["PTPUSB", "PTP"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "TerminalGraphicsTests", dependencies: ["TerminalGraphics", "Imaging"]),
        .testTarget(name: "InteropTests", dependencies: ["PTP", "PTPIP", "VirtualCamera", "MediaFormats"]),
    ],
    swiftLanguageModes: [.v6]
)
