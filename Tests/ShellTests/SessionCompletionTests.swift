import CommandKit
import Foundation
import MediaManager
import PTP
import TestSupport
import Testing
import VirtualCamera

@testable import Shell

/// Completion over a real session: names come from the cached catalog, and Tab sends nothing to the device.
@Suite struct SessionCompletionTests {
    let engine = CompletionEngine()

    @Test func tabSendsNoRequestToTheCamera() throws {
        let card = try makeCardFolder()
        let (session, probe) = try probedSession(card: try Card(folder: card.path), url: .folder(path: card.path))
        let (interpreter, _, _) = makeInterpreter()
        try session.catalog.ensureLoaded()
        interpreter.attach(session)
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
        let before = probe.transactions
        #expect(before > 0)

        let unique = engine.complete(marked: "fetch Bir|", in: interpreter.completion)
        #expect(unique.line == "fetch Birthday\\ Party.MP4 |")
        let several = engine.complete(marked: "select My\\ Clip\\ |", in: interpreter.completion)
        #expect(several.candidates == ["My Clip 1.MP4", "My Clip 2.MP4"])
        #expect(engine.complete(marked: "cd ../|", in: interpreter.completion).candidates == ["100MEDIA/", "101MEDIA/"])
        #expect(engine.complete(marked: "ls /DCIM/101MEDIA/IMG_010|", in: interpreter.completion).candidates
            == ["IMG_0100.JPG", "IMG_0101.JPG"])
        #expect(probe.transactions == before, "Tab sent \(probe.transactions - before) requests")

        // Even with the cable cut, Tab answers from the cache.
        probe.cut()
        #expect(engine.complete(marked: "info DJI_0003.S|", in: interpreter.completion).line == "info DJI_0003.SRT |")
        #expect(probe.transactions == before)
    }

    /// `set NAME <Tab>` offers the values of every setting that takes a fixed list of them (issue 48, item
    /// 6a): `set images <Tab>` offered nothing.
    @Test(arguments: [
        ("images", ["auto", "blocks", "iterm", "kitty", "off"]), ("errexit", ["off", "on"]), ("progress", ["off", "on"]),
        ("writable", ["off", "on"]), ("numbers", ["off", "on"]), ("player", ["auto", "mpv", "none"]), ("jobs-on-exit", ["ask", "kill", "wait"]),
        ("limit-rate", ["off"]), ("import-backup", ["none"]), ("camera", ["none"]), ("ptpip-guid", ["auto"]),
        ("timeout", []), ("download-dir", []), ("import-to", []), ("prompt", []),
        ("creator", ["none"]), ("copyright", ["none"]), ("keywords", ["none"]), ("rating", ["none"]),
        ("sidecar-name", ["base", "ext"]), ("mhl", ["off", "on"]),
    ])
    func setOffersTheFixedValuesOfEachSetting(name: String, values: [String]) {
        let (interpreter, _, _) = makeInterpreter()
        let all = engine.complete(marked: "set \(name) |", in: interpreter.completion)
        if values.count == 1 {
            #expect(all.line == "set \(name) \(values[0]) |")
        } else {
            #expect(all.candidates == values)
        }
        if let first = values.first {
            let typed = String(first.prefix(2))
            let matching = values.filter { $0.hasPrefix(typed) }
            let one = engine.complete(marked: "set \(name) \(typed)|", in: interpreter.completion)
            if matching.count == 1 { #expect(one.line == "set \(name) \(first) |") }
        }
        #expect(Settings.names.contains(name))
    }

    @Test func everySettingIsCoveredByTheValuesTest() {
        let covered = [
            "images", "errexit", "progress", "writable", "numbers", "player", "jobs-on-exit", "limit-rate", "import-backup", "camera",
            "ptpip-guid", "timeout", "download-dir", "import-to", "prompt", "creator", "copyright", "keywords", "rating",
            "sidecar-name", "mhl",
        ]
        #expect(Set(Settings.names) == Set(covered))
    }

    @Test func completesOverTheDemoCameraAfterItsTransportIsClosed() throws {
        let (interpreter, _, _) = makeInterpreter()
        try interpreter.open(.simulator(path: nil))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
        _ = engine.complete(marked: "fetch DJI|", in: interpreter.completion)
        interpreter.media?.camera.session.transport.close()
        #expect(engine.complete(marked: "play DJI_0005.M|", in: interpreter.completion).line == "play DJI_0005.MP4 |")
        let listed = engine.complete(marked: "fetch DJI_0003|", in: interpreter.completion)
        #expect(listed.candidates == ["DJI_0003.LRF", "DJI_0003.MP4", "DJI_0003.SRT"])
    }

    @Test func theIndexIsRebuiltOnlyWhenTheCatalogChanges() throws {
        let card = try makeCardFolder()
        let (interpreter, output, _) = makeInterpreter()
        try interpreter.open(.folder(path: card.path))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
        let completion = interpreter.completion
        for prefix in ["DJI", "My", "B", "DJI_0003."] {
            _ = engine.complete(marked: "fetch \(prefix)|", in: completion)
        }
        #expect(completion.indexesBuilt == 1)
        _ = engine.complete(marked: "fetch ../101MEDIA/|", in: completion)
        #expect(completion.indexesBuilt == 2)

        #expect(interpreter.run(line: "delete --force DJI_0001.JPG") == .success, "\(output.errors)")
        let after = engine.complete(marked: "fetch DJI_000|", in: completion)
        #expect(after.candidates == ["DJI_0002.JPG", "DJI_0003.MP4", "DJI_0003.SRT"])
        #expect(completion.indexesBuilt == 3)
    }

    @Test func settingsSchemesAndLocalPaths() throws {
        let local = try TemporaryFolder()
        try local.write("scripts/import.msh", text: "ls\n")
        let (interpreter, _, _) = makeInterpreter()
        #expect(engine.complete(marked: "set err|", in: interpreter.completion).line == "set errexit |")
        #expect(engine.complete(marked: "set limit|", in: interpreter.completion).line == "set limit-rate |")
        #expect(engine.complete(marked: "open pt|", in: interpreter.completion).line == "open ptpip:|")
        let source = engine.complete(marked: "source \(local.path)/scr|", in: interpreter.completion)
        #expect(source.line == "source \(local.path)/scripts/|")
        #expect(engine.complete(marked: "fetch D|", in: interpreter.completion).line == "fetch D|", "no camera: no names")
    }
}

/// `open` completes the URLs of the cameras the last `devices` found on the network.
@Suite struct DiscoveredCameraCompletionTests {
    @Test func openCompletesWhatDevicesFound() {
        let (interpreter, _, _) = makeInterpreter()
        interpreter.state.discoveredURLs = ["ptpip:192.168.1.20", "ptpip:192.168.1.21:15740"]
        let engine = CompletionEngine()
        #expect(engine.complete(marked: "open ptpip:192.168.1.2|", in: interpreter.completion).candidates
            == ["ptpip:192.168.1.20", "ptpip:192.168.1.21:15740"])
        #expect(engine.complete(marked: "open ptpip:192.168.1.20|", in: interpreter.completion).line == "open ptpip:192.168.1.20|")
        #expect(engine.complete(marked: "open ptpip:192.168.1.21|", in: interpreter.completion).line == "open ptpip:192.168.1.21:15740|")
    }
}
