import CameraFacts
import Testing

@Suite struct LocalFileNameTests {
    @Test func hostileNamesBecomeSafe() {
        #expect(LocalFileName.sanitize("../../x") == "_.._x" || !LocalFileName.sanitize("../../x").contains("/"))
        #expect(!LocalFileName.sanitize("../../x").contains("/"))
        #expect(LocalFileName.sanitize("..") == "__")
        #expect(LocalFileName.sanitize(".") == "_")
        #expect(LocalFileName.sanitize("a/b") == "a_b")
        #expect(LocalFileName.sanitize(".bashrc") == "_bashrc")
        #expect(LocalFileName.sanitize("x\u{0}y\u{1B}[31m\n") == "x_y_[31m_")
        #expect(LocalFileName.sanitize("") == "unnamed")
        #expect(LocalFileName.sanitize("   ") == "unnamed")
        #expect(LocalFileName.sanitize("DJI 0001.JPG") == "DJI 0001.JPG")
        let long = String(repeating: "é", count: 300) + ".MP4"
        let cut = LocalFileName.sanitize(long)
        #expect(cut.utf8.count <= 255)
        #expect(cut.hasSuffix(".MP4"))
    }

    @Test func collisionsGetDistinctNames() {
        let names = LocalFileName.uniqueNames(for: ["A.JPG", "a.jpg", "A.JPG", "x/y", "x_y", ".."])
        #expect(names == ["A.JPG", "a (2).jpg", "A (3).JPG", "x_y", "x_y (2)", "__"])
    }
}
