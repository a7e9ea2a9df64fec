import CameraFacts
import Testing

/// Camera paths as typed, resolved against the current folder, and the entries names lead to.
@Suite struct RemotePathTests {
    @Test func typedPathsResolveFromTheFolder() {
        #expect(RemotePath.resolve("..", from: "DCIM/100MEDIA") == "DCIM")
        #expect(RemotePath.resolve("../../..", from: "DCIM/100MEDIA") == "")
        #expect(RemotePath.resolve("/DCIM/./101MEDIA/", from: "MISC") == "DCIM/101MEDIA")
        #expect(RemotePath.resolve("a b/c", from: "") == "a b/c")
        #expect(RemotePath.child("DJI.JPG", of: "") == "DJI.JPG")
        #expect(RemotePath.parent(of: "DCIM/100MEDIA") == "DCIM")
    }

    @Test func hiddenNamesAreThoseBeginningWithADot() {
        #expect(RemoteEntry(path: "DCIM/.thumbnails", file: nil, isFolder: true, shown: ".thumbnails").isHidden)
        #expect(RemoteEntry(path: ".trashed-1.JPG", file: nil, isFolder: false, shown: ".trashed-1.JPG").isHidden)
        #expect(!RemoteEntry(path: "DCIM/100MEDIA/DJI.JPG", file: nil, isFolder: false, shown: "../x/DJI.JPG").isHidden)
    }
}
