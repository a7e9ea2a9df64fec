import Foundation
import MediaFormats
@testable import MediaManager
import PTP
import TerminalGraphics
import Testing

@testable import Shell
import Words

/// The rules of the session state, without a camera: the selection and its offset, edit mode, closing.
@Suite struct SessionStateTests {
    static func file(_ name: String, id: UInt32, size: UInt64 = 1_000, folder: String = "DCIM/100MEDIA") -> MediaFile {
        MediaFile(
            id: id, storageID: 1, parentID: 0, name: name, folder: folder, kind: .init(fileName: name), isFolder: false,
            format: .undefined, size: size, captureDate: nil, video: nil)
    }

    let a = file("DJI_0001.MP4", id: 1)
    let b = file("DJI_0002.MP4", id: 2)

    @Test func selectingAnotherFileResetsTheOffset() {
        var state = SessionState()
        state.select(a)
        state.setOffset(400)
        #expect(state.selection?.offset == 400)
        state.select(a)
        #expect(state.selection?.offset == 400, "the same file keeps its offset")
        state.select(b)
        #expect(state.selection?.file == b)
        #expect(state.selection?.offset == 0)
        state.select(a, downloaded: 250)
        #expect(state.selection?.offset == 250, "a new selection starts where its .part ends")
    }

    @Test func aStoppedFetchSelectsTheFileAtItsOffset() {
        var state = SessionState()
        state.select(a)
        state.fetchStopped(b, at: 640)
        #expect(state.selection == Selection(file: b, offset: 640))
        state.fetchStopped(b, at: 5_000)
        #expect(state.selection?.offset == 1_000, "never past the end")
        state.fetchCompleted(b)
        #expect(state.selection?.offset == 0)
        #expect(state.selection?.file == b)
    }

    @Test func editModeAndDone() {
        var state = SessionState()
        #expect(!state.isEditing)
        let entered = state.enterEditMode()
        let enteredAgain = state.enterEditMode()
        #expect(entered && !enteredAgain, "the second edit finds edit mode on")
        #expect(state.isEditing)
        let left = state.leaveEditMode()
        let leftAgain = state.leaveEditMode()
        #expect(left && !leftAgain)
        #expect(!state.isEditing)
    }

    @Test func closingTheCameraForgetsEverythingButSettings() {
        var state = SessionState()
        state.settings.errexit = false
        state.changeFolder(to: "DCIM/100MEDIA")
        state.select(a)
        state.enterEditMode()
        state.cameraClosed()
        #expect(state.folder == "")
        #expect(state.selection == nil)
        #expect(!state.isEditing)
        #expect(!state.settings.errexit)
    }

    @Test func aReloadFollowsTheSelectionAndTheFolder() {
        var state = SessionState()
        state.changeFolder(to: "DCIM/100MEDIA/SUB")
        state.select(a)
        state.setOffset(900)
        let smaller = Self.file(a.name, id: 7, size: 500)
        state.catalogReloaded(lookup: { $0 == a.path ? smaller : nil }, folderExists: { $0 == "DCIM" })
        #expect(state.selection?.file.id == 7)
        #expect(state.selection?.offset == 0, "an offset past the new size is dropped")
        #expect(state.folder == "DCIM")
        state.catalogReloaded(lookup: { _ in nil }, folderExists: { _ in false })
        #expect(state.selection == nil)
        #expect(state.folder == "")
    }

    @Test func deletingTheSelectedFileDropsTheSelection() {
        var state = SessionState()
        state.select(a)
        state.fileRemoved(path: b.path)
        #expect(state.selection != nil)
        state.fileRemoved(path: a.path)
        #expect(state.selection == nil)
    }

    @Test func settingsParseAndRefuse() throws {
        var settings = Settings()
        try settings.set("errexit", to: "off")
        #expect(!settings.errexit)
        try settings.set("timeout", to: "2.5")
        #expect(try settings.value(of: "timeout") == "2.5")
        try settings.set("limit-rate", to: "20M")
        #expect(settings.rateLimit == 20_000_000)
        try settings.set("limit-rate", to: "off")
        #expect(settings.rateLimit == nil)
        try settings.set("images", to: "Kitty")
        #expect(settings.images == .kitty)
        #expect(try settings.value(of: "images") == "kitty")
        try settings.set("images", to: "on")
        #expect(settings.images == .auto, "on is auto: pictures where the terminal can draw them")
        for (name, value) in [("errexit", "maybe"), ("timeout", "-1"), ("colour", "on"), ("limit-rate", "fast"), ("images", "sixel")] {
            let before = settings
            #expect(throws: SettingError.self) {
                var copy = before
                try copy.set(name, to: value)
            }
        }
        do { try settings.set("errexit", to: "maybe") } catch {}
        #expect(settings.errexit == false, "a refused value leaves the setting alone")
    }

    @Test func remotePathsAreShownSafely() {
        #expect(RemotePath.display("") == "/")
        #expect(RemotePath.display("DCIM/\u{1B}[31m") == "/DCIM/\\x1b[31m")
    }
}
