import Foundation

/// The built-in demo card, laid out like a drone's: DCIM/100MEDIA with photos (DJI_0001.JPG …) and
/// videos (DJI_0003.MP4) travelling with their telemetry (.SRT) and low-resolution proxy (.LRF).
/// The media are real files bundled with the program, served read-only from where they lie; deletes
/// and captures (on a card made with `readOnly: false`) change only this in-memory card.
public enum DemoCard {
    /// One file of the card: its name and which bundled file (or generated text) it serves.
    struct Entry {
        var name: String
        var source: Source
        var taken: String
        enum Source {
            case media(String)
            case telemetry(seconds: Int, start: String)
        }
    }

    static let layout: [Entry] = [
        Entry(name: "DJI_0001.JPG", source: .media("photo_landscape.jpg"), taken: "2024-05-01 10:12:03"),
        Entry(name: "DJI_0002.JPG", source: .media("photo_portrait.jpg"), taken: "2024-05-01 10:14:27"),
        Entry(name: "DJI_0003.MP4", source: .media("landscape_faststart.mp4"), taken: "2024-05-01 10:15:02"),
        Entry(name: "DJI_0003.SRT", source: .media("landscape_telemetry.srt"), taken: "2024-05-01 10:15:02"),
        Entry(name: "DJI_0003.LRF", source: .media("landscape_proxy_160x90.lrf"), taken: "2024-05-01 10:15:02"),
        Entry(name: "DJI_0004.JPG", source: .media("photo_rotated_orientation6.jpg"), taken: "2024-05-01 10:16:45"),
        Entry(name: "DJI_0005.MP4", source: .media("portrait_moovend.mp4"), taken: "2024-05-01 10:18:50"),
        Entry(name: "DJI_0005.SRT", source: .telemetry(seconds: 2, start: "2024-05-01 10:18:50"), taken: "2024-05-01 10:18:50"),
        Entry(name: "DJI_0005.LRF", source: .media("portrait_proxy_160x90.lrf"), taken: "2024-05-01 10:18:50"),
        Entry(name: "DJI_0006.MOV", source: .media("clip.mov"), taken: "2024-05-01 10:21:12"),
    ]

    /// The photo a capture produces.
    static let captureSource = "photo_landscape.jpg"

    public static func make(readOnly: Bool = false) throws -> Card {
        let card = Card(inMemoryLabel: "DJI SD", capacity: 64 << 30, readOnly: readOnly)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        for entry in layout {
            let date = formatter.date(from: entry.taken) ?? Date()
            switch entry.source {
            case .media(let file):
                // A missing bundled file is left out rather than served empty.
                guard let path = DemoMedia.file(file) else { continue }
                let handle = card.add(name: entry.name, in: "DCIM/100MEDIA", content: .resource(path: path), modified: date)
                let stem = file.split(separator: ".").dropLast().joined(separator: ".")
                if let thumbnail = DemoMedia.file(stem + ".thumb.jpg") { card.setThumbnail(handle, path: thumbnail) }
            case .telemetry(let seconds, let start):
                let text = telemetry(seconds: seconds, start: formatter.date(from: start) ?? date)
                card.add(name: entry.name, in: "DCIM/100MEDIA", content: .bytes(Array(text.utf8)), modified: date)
            }
        }
        try enableCapture(on: card)
        return card
    }

    /// Lets `card` take pictures, using the bundled photo.
    public static func enableCapture(on card: Card) throws {
        if let path = DemoMedia.file(captureSource) {
            card.captureImage = try CardFileSystem.readWholeFile(path, limit: 16 << 20)
        }
    }

    /// Flight telemetry in the form DJI drones write beside each video: one subtitle a second.
    static func telemetry(seconds: Int, start: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        var text = ""
        for i in 0..<seconds {
            func stamp(_ s: Int) -> String { String(format: "00:00:%02d,000", s) }
            let latitude = 46.204_391 + Double(i) * 0.000_012
            let longitude = 6.143_158 + Double(i) * 0.000_021
            text += "\(i + 1)\n\(stamp(i)) --> \(stamp(i + 1))\n"
            text += "<font size=\"28\">FrameCnt: \(i * 30 + 1), DiffTime: 33ms\n"
            text += formatter.string(from: start.addingTimeInterval(Double(i))) + "\n"
            text += String(
                format: "[iso: 100] [shutter: 1/500.0] [fnum: 1.7] [ev: 0] [focal_len: 24.00] "
                    + "[latitude: %.6f] [longitude: %.6f] [rel_alt: %.3f abs_alt: %.3f] </font>\n\n",
                latitude, longitude, 52.3 + Double(i) * 0.4, 431.1 + Double(i) * 0.4)
        }
        return text
    }
}
