import CommandKit
import Testing

@testable import Shell
@testable import TerminalKit

/// Completion among 50,000 names: correct answers (the time is measured by the benchmark, not here).
@Suite struct LargeCatalogTests {
    static let names: [CompletionEntry] = (0..<50_000).map { i in
        let digits = String(i)
        return CompletionEntry("DJI_" + String(repeating: "0", count: 5 - digits.count) + digits + (i % 2 == 0 ? ".JPG" : ".MP4"))
    } + [CompletionEntry("Flight Logs", isFolder: true)]

    let engine = CompletionEngine()
    let catalog = FakeCatalog(["": names.shuffled()])

    @Test func uniqueAmongFiftyThousand() {
        #expect(engine.complete(marked: "fetch DJI_31415|", in: catalog).line == "fetch DJI_31415.MP4 |")
        #expect(engine.complete(marked: "fetch dji_27182|", in: catalog).line == "fetch DJI_27182.JPG |")
        #expect(engine.complete(marked: "fetch Fl|", in: catalog).line == "fetch Flight\\ Logs/|")
    }

    @Test func prefixRangesAmongFiftyThousand() {
        let (line, candidates) = engine.complete(marked: "fetch DJI_4999|", in: catalog)
        #expect(line == "fetch DJI_4999|")
        #expect(candidates == (49990...49999).map { "DJI_\($0)" + ($0 % 2 == 0 ? ".JPG" : ".MP4") })
        #expect(engine.complete(marked: "fetch DJI_1|", in: catalog).candidates.count == 10_000)
        #expect(engine.complete(marked: "fetch D|", in: catalog).line == "fetch DJI_|")
        #expect(engine.complete(marked: "fetch |", in: catalog).candidates.count == 50_001)
        #expect(engine.complete(marked: "cd |", in: catalog).line == "cd Flight\\ Logs/|")
    }

    @Test func repeatedTabsReuseTheIndex() {
        for prefix in ["DJI_0", "DJI_1", "DJI_2"] {
            _ = engine.complete(marked: "fetch \(prefix)|", in: catalog)
        }
        #expect(catalog.remoteListings == 1)
    }
}
