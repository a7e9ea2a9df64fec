import Foundation
import MediaFormats
import TestSupport
import Testing

/// A DJI `.SRT` read for its flight (issue 42): every form DJI has written, a cue without a fix, text
/// that is no telemetry, and the demo card's telemetry.
@Suite("FlightSummary")
struct FlightSummaryTests {
    func summary(_ text: String) -> FlightSummary { FlightSummary(srt: Array(text.utf8)) }

    @Test func recentDronesBracketedValues() {
        let flight = summary("""
            1
            00:00:00,000 --> 00:00:00,033
            <font size="28">FrameCnt: 1, DiffTime: 33ms
            2024-05-01 10:12:03.000
            [iso: 100] [shutter: 1/640.0] [fnum: 1.7] [ev: 0] [latitude: 0.000000] [longitude: 0.000000] [rel_alt: 0.000 abs_alt: 80.000] </font>

            2
            00:00:00,033 --> 00:00:00,066
            <font size="28">FrameCnt: 2, DiffTime: 33ms
            2024-05-01 10:12:03.033
            [iso : 100] [shutter : 1/640.0] [fnum : 170] [latitude: -33.868820] [longitude: -151.209296] [rel_alt: 12.500 abs_alt: 92.500] </font>

            3
            00:01:00,000 --> 00:01:00,033
            [latitude: -33.868900] [longitude: -151.209100] [rel_alt: 10.000 abs_alt: 90.000]
            """)
        #expect(flight.cueCount == 3)
        #expect(flight.start == GeoPoint(latitude: -33.86882, longitude: -151.209296))
        #expect(flight.end == GeoPoint(latitude: -33.8689, longitude: -151.2091))
        #expect(flight.highestRelative == 12.5 && flight.highestAbsolute == 92.5 && flight.highestUnspecified == nil)
        #expect(abs((flight.duration ?? 0) - 60.033) < 1e-9)
    }

    @Test func mavic2SpellingAndAnAltitudeOfNoReference() {
        let flight = summary("""
            1
            00:00:00,000 --> 00:00:01,000
            [iso : 110] [shutter : 1/200.0] [fnum : 280] [ev : 0] [ct : 5064] [color_md : default] [focal_len : 280] [latitude : 36.608553] [longtitude : -121.893873] [altitude: 41.469000]
            """)
        #expect(flight.start == GeoPoint(latitude: 36.608553, longitude: -121.893873))
        #expect(flight.highestUnspecified == 41.469 && flight.highestRelative == nil && flight.highestAbsolute == nil)
    }

    @Test func olderGPSAndBarometerLines() {
        let flight = summary("""
            1
            00:00:00,000 --> 00:00:01,000
            HOME(149.0251,-20.2532) 2017.08.05 14:11:51
            GPS(149.0251,-20.2533,16) BAROMETER:1.9
            ISO:100 Shutter:60 EV:0 Fnum:F2.2

            2
            00:00:01,000 --> 00:00:02,000
            HOME(149.0251,-20.2532) 2017.08.05 14:11:52
            GPS(149.0262,-20.2540,19) BAROMETER:4.5
            ISO:100 Shutter:60 EV:0 Fnum:F2.2
            """)
        #expect(flight.start == GeoPoint(latitude: -20.2533, longitude: 149.0251))
        #expect(flight.end == GeoPoint(latitude: -20.254, longitude: 149.0262))
        #expect(flight.highestRelative == 4.5 && flight.highestAbsolute == 19)
        #expect(flight.duration == 2)
    }

    @Test func mavicMiniHeightAndNoGPSAltitude() {
        let flight = summary("""
            1
            00:00:00,000 --> 00:00:01,000
            F/2.8, SS 1/320, ISO 100, EV 0, GPS (-2.4412, 51.8813, 19), D 5.42m, H 3.20m, H.S 0.00m/s, V.S 0.00m/s
            """)
        #expect(flight.start == GeoPoint(latitude: 51.8813, longitude: -2.4412))
        #expect(flight.highestRelative == 3.2 && flight.highestAbsolute == nil)
    }

    @Test func subtitlesAndNoiseAreNoFlight() {
        #expect(summary("1\n00:00:01,000 --> 00:00:02,000\nHello there\n\n2\n00:00:02,000 --> 00:00:03,000\n[music]\n").isEmpty)
        #expect(summary("").isEmpty)
        var random = SeededRandom(test: "FlightSummaryTests.noise")
        for _ in 0..<200 {
            let noise = random.bytes(Int.random(in: 0...2000, using: &random))
            let flight = FlightSummary(srt: noise)
            #expect(flight.start.map { abs($0.latitude) <= 90 && abs($0.longitude) <= 180 } ?? true, "\(random)")
        }
        // Damaged values: no number, out of range, a latitude with no longitude.
        let damaged = summary("[latitude: 91.0] [longitude: 10.0]\n\n[latitude: abc] [longitude: 1]\n\n[latitude: 5]\n\n[rel_alt: nan abs_alt: 1e999]")
        #expect(damaged.start == nil && damaged.highestRelative == nil && damaged.highestAbsolute == nil)
    }

    @Test func theDemoCardsTelemetry() throws {
        let bytes = try Fixtures.bytes("landscape_telemetry.srt")
        let flight = FlightSummary(srt: bytes)
        // The file's own numbers, read here line by line.
        let text = String(decoding: bytes, as: UTF8.self)
        func values(_ key: String) -> [Double] {
            text.components(separatedBy: "[\(key): ").dropFirst().compactMap { Double($0.prefix { $0 != "]" && $0 != " " }) }
        }
        let (latitudes, longitudes) = (values("latitude"), values("longitude"))
        let relative = text.components(separatedBy: "rel_alt: ").dropFirst().compactMap { Double($0.prefix { $0 != " " }) }
        let absolute = text.components(separatedBy: "abs_alt: ").dropFirst().compactMap { Double($0.prefix { $0 != "]" }) }
        #expect(flight.cueCount == 90 && latitudes.count == 90)
        #expect(flight.start == GeoPoint(latitude: latitudes[0], longitude: longitudes[0]))
        #expect(flight.end == GeoPoint(latitude: latitudes[89], longitude: longitudes[89]))
        #expect(flight.highestRelative == relative.max() && flight.highestAbsolute == absolute.max())
        #expect(abs((flight.duration ?? 0) - 3.0) < 0.001)
    }
}
