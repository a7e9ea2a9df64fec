import CameraFacts

extension ImportPlan {
    /// What the plan would do, as `import --list` and `import --dry-run` say it. Works out `bytesToFetch`,
    /// which places the unplaced groups.
    public var preview: ImportPreview {
        ImportPreview(
            items: items.map { item in
                let action: ImportPreview.Item.Action =
                    switch item.action {
                    case .fetch(let part, let overwrite): .fetch(partBytes: part, overwrite: overwrite)
                    case .alreadyThere: .alreadyThere
                    case .imported: .imported
                    }
                return ImportPreview.Item(
                    file: item.file, action: action, destination: item.destination, renamed: item.renamed,
                    captureTime: item.captureTime, importedFrom: item.importedFrom,
                    hasNonsenseDates: !item.datesSetAside.isEmpty)
            },
            filesToFetch: toFetch.count, bytesToFetch: bytesToFetch, alreadyImported: alreadyImported.count,
            alreadyThere: alreadyThere.count, shift: placer.shift, importedFromOtherCards: importedFromOtherCards)
    }
}
