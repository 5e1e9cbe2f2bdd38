import ModelLintSupport
import ModelLintModel
import ModelLintRules

/// `declared-rename-missing-id`: the old element's renaming identifier written as `elementID` on the renamed
/// element, in the renaming version and every later one that lacks it — only when none of them has shipped: a
/// version that shipped without it has stores that know the element by its own name, and giving it the old
/// identifier now would drop their data.
package struct DeclaredRenameRepair: Repair {
    package static let ruleID = DeclaredRenameMissingIDRule.description.id
    package static let summary =
        "it writes the old element's renaming identifier as elementID on the renamed element in the renaming version and every later one, when none of them has shipped."

    package init() {}

    /// Xcode writes `elementID` before these (as on an entity: name, representedClassName, elementID,
    /// versionHashModifier, syncable); with none of them, it goes last.
    static let followers = ["versionHashModifier", "syncable", "codeGenerationType", "spotlightIndexingEnabled"]

    package func repair(_ diagnostic: Diagnostic, in subject: RepairSubject, plan: inout RepairPlan) {
        guard
            let rename = subject.renamed.first(where: {
                $0.entity == diagnostic.entity && $0.property == diagnostic.property
            }),
            let start = subject.bundle.versions.firstIndex(where: { $0.name.isExactly(rename.version) }),
            let before = subject.predecessor(of: rename.version)?.model,
            let after = subject.bundle.versions[start].model,
            let old = DeclaredRenameMissingIDRule.identifier(
                of: rename, named: rename.from, in: before, matching: after)
        else {
            return plan.left(diagnostic, "the declared rename was not found in the bundle as read")
        }
        var targets: [(version: ModelVersion, location: SourceLocation, hasElementID: Bool)] = []
        for version in subject.bundle.versions[start...] {
            guard let model = version.model, let element = DeclaredRenameMissingIDRule.element(of: rename, in: model)
            else { break }
            guard element.identifier != old else { continue }
            let hasElementID: Bool
            if let property = rename.property {
                hasElementID =
                    model.entity(named: rename.entity)?.properties.first { $0.name == property }?.elementID != nil
            } else {
                hasElementID = model.entity(named: rename.entity)?.elementID != nil
            }
            targets.append((version, element.location, hasElementID))
        }
        if let shipped = targets.first(where: { subject.isShipped($0.version.name) }) {
            return plan.left(
                diagnostic,
                "\(shipped.version.name) has shipped without it: its stores know \(rename.label) by its own name, and the old identifier now would drop that data on every device that installed it"
            )
        }
        let element =
            rename.property == nil ? "entity" : (subject.isRelationship(rename) ? "relationship" : "attribute")
        let name = rename.property ?? rename.entity
        var written: [String] = []
        for target in targets {
            let path = target.version.contentsPath
            guard let line = target.location.line, let bytes = plan.bytes(of: path),
                let tag = StartTag.find(
                    in: bytes, element: element, named: name, line: line, column: target.location.column)
            else {
                return plan.left(diagnostic, "\(path) changed since it was read")
            }
            let done: Bool
            if let field = tag.field("elementID") {
                done = plan.replace(field.valueRange, in: path, with: XMLEscape.escape(old))
            } else {
                // Before the first of Xcode's later attributes, else before the tag's end.
                let at =
                    tag.fields.first(where: { Self.followers.contains($0.name) })?.nameRange.lowerBound
                    ?? Self.end(of: tag, in: bytes)
                let text =
                    tag.fields.first(where: { Self.followers.contains($0.name) }) != nil
                    ? "elementID=\"\(XMLEscape.escape(old))\" " : " elementID=\"\(XMLEscape.escape(old))\""
                done = plan.replace(at..<at, in: path, with: text)
            }
            guard done else { return plan.left(diagnostic, "another repair changes the same element") }
            written.append(target.version.name)
        }
        plan.repaired(
            diagnostic,
            "\(rename.label): elementID=\"\(old)\" written in " + written.joined(separator: ", "))
    }

    /// Where the tag's attributes end: before `/>` or `>`, and before any white space in front of it.
    static func end(of tag: StartTag, in bytes: [UInt8]) -> Int {
        var end = tag.range.upperBound - 1
        if end > tag.range.lowerBound, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        while end > tag.range.lowerBound, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return end
    }
}
