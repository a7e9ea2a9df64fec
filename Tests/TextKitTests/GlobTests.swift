import Testing

@testable import TextKit

@Suite struct GlobTests {
    @Test(arguments: [
        ("*.JPG", "DJI_0001.JPG", true),
        ("*.JPG", "DJI_0001.jpg", false),
        ("*", "", true),
        ("DJI_000?.JPG", "DJI_0001.JPG", true),
        ("DJI_000?.JPG", "DJI_00010.JPG", false),
        ("DJI_[0-9][0-9]*", "DJI_01.MP4", true),
        ("DJI_[0-9][0-9]*", "DJI_A1.MP4", false),
        ("[abc]x", "bx", true),
        ("[abc]x", "dx", false),
        ("[!abc]x", "dx", true),
        ("[!abc]x", "ax", false),
        ("[^a-c]x", "bx", false),
        ("[]]", "]", true),
        ("[a-]", "-", true),
        ("a[", "a[", true),
        ("a\\*", "a*", true),
        ("a\\*", "ab", false),
        ("*a*b*c", "xxaxxbxxc", true),
        ("*a*b*c", "xxaxxbxx", false),
        ("é*", "été", true),
        ("?", "é", true),
    ])
    func matches(pattern: String, name: String, expected: Bool) {
        #expect(GlobPattern(pattern).matches(name) == expected)
    }

    @Test func knowsWhetherItHasWildcards() {
        #expect(GlobPattern("*.JPG").hasWildcards)
        #expect(GlobPattern("[ab]").hasWildcards)
        #expect(!GlobPattern("plain.jpg").hasWildcards)
        #expect(!GlobPattern("a\\*").hasWildcards)
        #expect(!GlobPattern("a[").hasWildcards)
    }

    @Test func filtersNamesInOrder() {
        let names = ["DJI_0002.JPG", "DJI_0001.MP4", "DJI_0001.JPG", "notes.txt"]
        #expect(GlobPattern("DJI_*.JPG").filter(names) == ["DJI_0002.JPG", "DJI_0001.JPG"])
    }

    @Test func pathologicalPatternsStayFast() {
        let pattern = GlobPattern(String(repeating: "*a", count: 40) + "b")
        #expect(!pattern.matches(String(repeating: "a", count: 2000)))
    }
}
