import Testing
@testable import TestSupport

/// The shared generator that every fuzz test draws from: repeatable, and saying how to repeat it.
@Suite struct SeededRandomTests {
    @Test func theSameTestAndSeedGiveTheSameSequence() {
        var first = SeededRandom(test: "a", base: 7)
        var second = SeededRandom(test: "a", base: 7)
        var other = SeededRandom(test: "b", base: 7)
        let sequence = (0..<8).map { _ in first.next() }
        #expect(sequence == (0..<8).map { _ in second.next() })
        #expect(sequence != (0..<8).map { _ in other.next() })
    }

    @Test func itsDescriptionSaysHowToRunTheCaseAgain() {
        let random = SeededRandom(test: "garbage", base: 0xABC)
        #expect(random.description.contains("MEDIASHELL_TEST_SEED=0xabc"))
        #expect(random.description.contains("garbage"))
    }

    @Test func theSeedVariableTakesHexDecimalOrRandom() {
        #expect(TestSeed.parse("0x1F") == 31)
        #expect(TestSeed.parse("42") == 42)
        #expect(TestSeed.parse(nil) == nil)
        #expect(TestSeed.parse("") == nil)
        #expect(TestSeed.parse("junk") == nil)
        #expect(TestSeed.parse("random") != nil)
    }

    @Test func bytesFillEveryLength() {
        var random = SeededRandom(fixed: 1)
        for count in [0, 1, 7, 8, 9, 100] { #expect(random.bytes(count).count == count) }
    }
}
