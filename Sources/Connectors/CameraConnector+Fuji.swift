import FujiWiFi
import MediaManager
import PTP

extension CameraConnector {
    /// A Fujifilm X body on Wi-Fi: Fuji's init exchange on `port`, then containers; the event socket is
    /// connected by the transport once capture mode opens it.
    static func openFuji(host: String, port: UInt16, eventPort: UInt16, url: CameraURL, options: Options) throws -> Camera {
        let timeouts = FujiTimeouts(connect: options.timeout, read: options.timeout, handshake: options.timeout)
        let transport: FujiInitiator
        do {
            transport = try FujiInitiator.connect(
                host: host, port: port, eventPort: eventPort, name: options.identity.name, guid: options.identity.guid,
                timeouts: timeouts,
                trace: options.trace)
        } catch FujiWiFiError.refused(_, let reason) {
            throw CameraOpenError.fujifilmRefused(host: host, reason: reason)
        }
        // A body that answers GetDeviceInfo with nothing (an X-T4, libgphoto2 notes) gets Fuji's usual one.
        return try Camera(
            transport: FujiDeviceInfoSubstitute(options.traced(transport), model: transport.deviceName), location: url.description,
            dialect: FujiXDialect(accessTimeout: max(options.timeout, 30)))
    }
}
