import MediaManager

extension MediaSession {
    /// Opens the camera at `url` (see `CameraConnector`) as a session whose catalog is read on first use.
    public static func open(_ url: CameraURL, options: CameraConnector.Options = .init()) throws -> MediaSession {
        let camera = try CameraConnector.open(url, options: options)
        return MediaSession(camera: camera, url: url)
    }
}
