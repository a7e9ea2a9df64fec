import MediaManager
import POSIX
import PTPUSB

/// What `--release usb:...` did: who held the camera, the gvfs mounts it asked `gio mount -u` to unmount
/// (gvfs's gphoto2 and MTP backends let go of the camera then), and who holds it afterwards. It never ends a
/// process and never unbinds a driver: what is not gvfs's is only named.
public struct USBRelease: Sendable, Equatable {
    /// One `gio mount -u MOUNT`, and how it ended.
    public struct Request: Sendable, Equatable {
        public var mount: String
        /// gio's exit code; nil when it could not be run (`problem` says why).
        public var exitCode: Int32?
        public var problem: String?
        public init(mount: String, exitCode: Int32?, problem: String? = nil) {
            self.mount = mount
            self.exitCode = exitCode
            self.problem = problem
        }
    }

    public var camera: USBCameraDescription
    public var before: USBHolders
    public var requests: [Request]
    public var after: USBHolders

    public init(camera: USBCameraDescription, before: USBHolders, requests: [Request], after: USBHolders) {
        self.camera = camera
        self.before = before
        self.requests = requests
        self.after = after
    }
}

extension CameraConnector {
    /// `gio mount -u MOUNT`, bounded to 30 s; the function `releaseUSB` uses unless a test gives another.
    public static let gioUnmount: @Sendable (String) -> USBRelease.Request = { mount in
        guard let gio = findExecutable("gio", path: nil) else {
            return USBRelease.Request(mount: mount, exitCode: nil, problem: "gio is not installed (Debian package libglib2.0-bin)")
        }
        do throws(ChildProcess.RunFailure) {
            let run = try ChildProcess.run(executable: gio, arguments: ["mount", "-u", mount], input: [], outputLimit: 1 << 16, timeout: 30)
            return USBRelease.Request(mount: mount, exitCode: run.exitCode ?? -1)
        } catch {
            return USBRelease.Request(mount: mount, exitCode: nil, problem: "gio: \(error)")
        }
    }

    /// Asks gvfs to let go of the USB camera `url` names: `gio mount -u` for each gvfs backend that has its
    /// device open, then waits (up to `settle` seconds) until those backends have closed it.
    public static func releaseUSB(
        _ url: CameraURL, options: Options = Options(), scan: USBHolderScan = USBHolderScan(), settle: Double = 5,
        unmount: @Sendable (String) -> USBRelease.Request = CameraConnector.gioUnmount
    ) throws -> USBRelease {
        guard let selector = usbSelector(url) else {
            throw CameraOpenError.unavailable("--release takes a usb: camera, not \(url)")
        }
        let attached = options.usbBus.cameras()
        let matching = attached.filter(selector.matches)
        guard let camera = matching.first else { throw CameraOpenError.usb(.notFound(selector, available: attached)) }
        if matching.count > 1 { throw CameraOpenError.usb(.ambiguous(selector, matching: matching)) }
        let before = scan.holders(of: camera)
        let requests = before.gvfsMounts(fallbackSerial: camera.udevStyleSerial).map(unmount)
        var after = requests.isEmpty ? before : scan.holders(of: camera)
        let deadline = Deadline.after(settle)
        while !requests.isEmpty, after.processes.contains(where: { $0.gvfsScheme != nil }), !deadline.hasPassed {
            sleep(until: min(deadline, .after(0.1)))
            after = scan.holders(of: camera)
        }
        return USBRelease(camera: camera, before: before, requests: requests, after: after)
    }

    /// The USB selector of a `usb:` URL; nil for any other kind.
    static func usbSelector(_ url: CameraURL) -> USBCameraSelector? {
        switch url {
        case .usbFirst: .first
        case .usbAddress(let bus, let address): .address(bus: bus, address: address)
        case .usbID(let vendor, let product): .id(vendor: vendor, product: product)
        case .usbSerial(let serial): .serial(serial)
        case .usbModel(let name): .model(name)
        default: nil
        }
    }
}

extension USBRelease {
    /// True when nothing holds the camera any more (nothing may have held it to begin with).
    public var isFree: Bool { after.isEmpty }

    /// What was done and how it stands, one line each: each unmount asked, then who still holds it.
    public var lines: [String] {
        let who = "\(camera.url) (\(camera.displayName))"
        var lines: [String] = []
        for request in requests {
            switch (request.exitCode, request.problem) {
            case (0?, _): lines.append("asked gvfs to unmount \(request.mount) (gio mount -u)")
            case (let code?, _): lines.append("gio mount -u \(request.mount) failed (exit status \(code))")
            case (nil, let problem): lines.append("cannot run gio mount -u \(request.mount): \(problem ?? "gio did not run")")
            }
        }
        if after.isEmpty {
            lines.append(before.isEmpty ? "\(who) is not held by any program" : "\(who) is free now")
            if after.unreadable > 0 && before.isEmpty {
                lines.append("(\(after.unreadable) processes of other users could not be checked; as root, mediashell checks them too)")
            }
            return lines
        }
        let names = after.processes.map { "\($0.name) (pid \($0.pid))" }
        if !names.isEmpty {
            let gvfs = after.processes.contains { $0.gvfsScheme != nil }
            lines.append(
                "\(who) is still held by \(names.joined(separator: ", ")): mediashell never stops a program"
                    + (gvfs ? " (gvfs may still be finishing: try again in a moment)" : "; end it, then open the camera"))
        }
        if let driver = after.kernelDriver {
            lines.append("\(who) interface \(camera.interfaceNumber) is bound to the kernel driver '\(driver)': mediashell names it and does not unbind it")
        }
        return lines
    }
}
