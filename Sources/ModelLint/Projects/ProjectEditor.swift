import ModelLintSupport
import ModelLintModel

/// `new-version`'s edit of a `project.pbxproj` that references the bundle: a new `PBXFileReference` for the new
/// version (a copy of the current version's line, next to it), the new child in the version group, and
/// `currentVersion` repointed. Byte-conservative: three lines change or appear, every other byte stays.
package enum ProjectEditor {
    package struct EditError: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    package static func addingVersion(_ newName: String, to group: XcodeProject.VersionGroup, in text: String) throws
        -> String
    {
        guard let currentID = group.currentVersionID, let currentName = group.currentVersion else {
            throw EditError(description: "the version group has no current version to copy")
        }
        var lines = text.components(separatedBy: "\n")
        let folder = newName + ".xcdatamodel"
        // A new object id: 24 hex digits that are no object id of the file, derived from the name so reruns agree.
        // The file's ids are collected in one pass, so ids planted along the derivation cost a lookup each.
        let taken = objectIDs(in: text)
        var seed = SHA256.hex(group.id + "/" + folder).uppercased()
        while taken.contains(Substring(seed.prefix(24))) { seed = SHA256.hex(seed).uppercased() }
        let newID = String(seed.prefix(24))
        func trimmed(_ i: Int) -> String { lines[i].trimmingCharacters(in: .whitespaces) }
        // 1. The file reference: the current version's line, copied with the new id and name.
        guard
            let refLine = lines.indices.first(where: {
                trimmed($0).hasPrefix(currentID + " ") && lines[$0].contains("isa = PBXFileReference")
            })
        else {
            throw EditError(description: "the current version's file reference is not on one line, as Xcode writes it")
        }
        let reference = lines[refLine].replacingOccurrences(of: currentID, with: newID).replacingOccurrences(
            of: currentName, with: folder)
        lines.insert(reference, at: refLine + 1)
        // 2. The group's children and 3. its current version, inside the group's block.
        guard
            let start = lines.indices.first(where: {
                trimmed($0).hasPrefix(group.id + " ") && lines[$0].contains("= {")
            }),
            let end = lines.indices[start...].first(where: { trimmed($0) == "};" })
        else {
            throw EditError(description: "the version group's definition is not where Xcode writes it")
        }
        guard
            let child = (start...end).first(where: {
                trimmed($0).hasPrefix(currentID + " ") && trimmed($0).hasSuffix(",")
            }),
            let pointer = (start...end).first(where: { trimmed($0).hasPrefix("currentVersion = " + currentID) })
        else {
            throw EditError(
                description: "the version group's children or currentVersion are not one per line, as Xcode writes them"
            )
        }
        lines[pointer] = lines[pointer].replacingOccurrences(of: currentID, with: newID).replacingOccurrences(
            of: currentName, with: folder)
        lines.insert(
            lines[child].replacingOccurrences(of: currentID, with: newID).replacingOccurrences(
                of: currentName, with: folder), at: child + 1)
        return lines.joined(separator: "\n")
    }

    /// Every run of exactly 24 hexadecimal digits in the text (Xcode's object ids).
    package static func objectIDs(in text: String) -> Set<Substring> {
        var ids = Set<Substring>()
        var run = text.utf8.startIndex
        var length = 0
        for index in text.utf8.indices {
            let byte = text.utf8[index]
            let hex = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
            if hex {
                if length == 0 { run = index }
                length += 1
            } else {
                if length == 24 { ids.insert(Substring(text.utf8[run..<index]).uppercased()[...]) }
                length = 0
            }
        }
        if length == 24 { ids.insert(Substring(text.utf8[run...]).uppercased()[...]) }
        return ids
    }
}
