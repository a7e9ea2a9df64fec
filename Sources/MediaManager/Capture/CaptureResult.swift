import Foundation
import POSIX
import PTP

/// The files a capture made, and how they were found.
public struct CaptureResult: Sendable {
    public var files: [MediaFile]
    /// The camera reported nothing (no ObjectAdded): the files were found by listing again the folders
    /// a new shot can go to and comparing.
    public var foundByListing: Bool
    /// The camera sent no event at all, not even CaptureComplete.
    public var cameraSentNoEvents: Bool
}

extension MediaSession {
    /// Takes a picture and returns the new files (never the folder a camera made for them) once the
    /// catalog knows them. When the camera reports nothing before `timeout`, the folders that can have
    /// changed are listed again and what appeared is returned. `cancellation` (Ctrl-C) ends the wait early.
    public func capture(timeout: TimeInterval = 30, cancellation: Cancellation = .never) throws -> CaptureResult {
        try catalog.ensureLoaded()
        let watched = catalog.foldersNewShotsGoTo()
        let before = Set(watched.flatMap { (catalog.contents(of: $0.path) ?? []).map(\.id) })
        let events = try camera.capture(timeout: timeout, cancellation: cancellation)
        if !events.added.isEmpty {
            try catalog.ensureLoaded()
            return CaptureResult(files: catalog.files(among: events.added), foundByListing: false, cameraSentNoEvents: false)
        }
        let appeared = try listAgain(watched, known: before)
        return CaptureResult(files: appeared, foundByListing: true, cameraSentNoEvents: !events.completed)
    }

    /// The files that appeared in the folders a new shot can go to (the root, DCIM and its last folder of
    /// each store) since the catalog last knew them, now in the catalog: how a camera that announces nothing
    /// is watched, a few requests a round however big the card.
    public func newFilesInShotFolders() throws -> [MediaFile] {
        try catalog.ensureLoaded()
        let watched = catalog.foldersNewShotsGoTo()
        let known = Set(watched.flatMap { (catalog.contents(of: $0.path) ?? []).map(\.id) })
        return try listAgain(watched, known: known)
    }

    private func listAgain(_ folders: [(path: String, id: UInt32?, storage: UInt32)], known: Set<UInt32>) throws -> [MediaFile] {
        var appeared: [UInt32] = []
        for folder in folders {
            let listing = try camera.list(folder: folder.id, storage: folder.storage, folderPath: folder.path)
            appeared += listing.files.map(\.id).filter { !known.contains($0) }
        }
        for id in appeared { catalog.apply(.added(id)) }
        try catalog.applyPendingChanges()
        return catalog.files(among: appeared)
    }
}

extension MediaCatalog {
    /// Where a camera puts a new shot: each store's root, its DCIM folder, and the last folder in DCIM
    /// (or, without DCIM, the last folder at the root). Only these are listed again after a silent capture.
    func foldersNewShotsGoTo() -> [(path: String, id: UInt32?, storage: UInt32)] {
        var result: [(path: String, id: UInt32?, storage: UInt32)] = []
        for root in storeRoots() {
            guard let rootIDs = folderHandle(root) else { continue }
            result.append((root, rootIDs.id, rootIDs.storage))
            let dcim = (contents(of: root) ?? []).first { $0.isFolder && $0.name.uppercased() == "DCIM" }
            let parentPath = dcim.map { root.isEmpty ? $0.name : root + "/" + $0.name } ?? root
            if let dcim { result.append((parentPath, dcim.id, rootIDs.storage)) }
            if let last = (contents(of: parentPath) ?? []).filter(\.isFolder).last {
                let path = parentPath.isEmpty ? last.name : parentPath + "/" + last.name
                result.append((path, last.id, rootIDs.storage))
            }
        }
        return result
    }
}
