import ModelLintSupport
import ModelLintModel
import ModelLintRules

/// `renaming-identifier-xml-attribute`: the hand-written `renamingIdentifier="x"` becomes Xcode's `elementID="x"`,
/// in place, only in a version that has not shipped and whose own step makes the rename (the version before it has
/// the element under identifier `x`). A shipped version that carries the same attribute was compiled without it:
/// its stores know the element by its current name, and converting would drop that data on every device that
/// installed it, so the finding is left to a person.
package struct RenamingIdentifierRepair: Repair {
    package static let ruleID = "renaming-identifier-xml-attribute"
    package static let summary =
        "it writes the hand-written renamingIdentifier as Xcode's elementID in a version that has not shipped and whose own step makes the rename, unless a shipped version carries the same attribute."

    package init() {}

    package func repair(_ diagnostic: Diagnostic, in subject: RepairSubject, plan: inout RepairPlan) {
        guard let versionName = diagnostic.version, let entityName = diagnostic.entity,
            let version = subject.version(named: versionName), let model = version.model,
            let entity = model.entity(named: entityName)
        else {
            return plan.left(diagnostic, "the element was not found as read")
        }
        // A shipped version's finding is history (a note): its stores were made without the rename.
        guard !subject.isShipped(versionName) else { return }
        let element: String
        let name: String
        let identifier: String?
        let hasElementID: Bool
        let location: SourceLocation
        if let propertyName = diagnostic.property {
            guard let property = entity.properties.first(where: { $0.name == propertyName }) else {
                return plan.left(diagnostic, "\(entityName).\(propertyName) was not found in \(versionName) as read")
            }
            if case .relationship = property { element = "relationship" } else { element = "attribute" }
            identifier = property.renamingIdentifierAttribute
            name = propertyName
            hasElementID = property.elementID != nil
            location = property.location
        } else {
            element = "entity"
            name = entityName
            identifier = entity.renamingIdentifierAttribute
            hasElementID = entity.elementID != nil
            location = entity.location
        }
        let label = diagnostic.property.map { "\(entityName).\($0)" } ?? entityName
        guard let identifier else { return plan.left(diagnostic, "\(label) has no renamingIdentifier as read") }
        guard !hasElementID else {
            return plan.left(
                diagnostic, "\(label) has both an elementID and a renamingIdentifier: keep the one you mean")
        }
        // A shipped version with the same hand-written attribute: its stores know the element by its own name.
        for shipped in subject.bundle.versions where subject.isShipped(shipped.name) {
            guard let old = shipped.model?.entity(named: entityName) else { continue }
            let carried =
                diagnostic.property.map { name in
                    old.properties.first { $0.name == name }?.renamingIdentifierAttribute
                } ?? old.renamingIdentifierAttribute
            if carried == identifier {
                return plan.left(
                    diagnostic,
                    "\(shipped.name) shipped with the same renamingIdentifier, which its build ignored: its stores know \(label) by its own name, and an elementID now would drop that data on every device that installed it"
                )
            }
        }
        // The step into this version makes the rename: the version before it has the element under `identifier`.
        guard let previous = subject.predecessor(of: versionName), let before = previous.model else {
            return plan.left(diagnostic, "no readable version comes before \(versionName) to rename \(identifier) from")
        }
        let renamesHere: Bool
        if diagnostic.property != nil {
            let older = before.entities.first { $0.renamingIdentifier == entity.renamingIdentifier }
            renamesHere = older?.properties.contains { $0.renamingIdentifier == identifier } ?? false
        } else {
            renamesHere = before.entities.contains { $0.renamingIdentifier == identifier }
        }
        guard renamesHere else {
            return plan.left(
                diagnostic,
                "\(previous.name) has no element \(identifier) for this step to rename: say which element it was")
        }
        guard let line = location.line, let bytes = plan.bytes(of: version.contentsPath),
            let tag = StartTag.find(in: bytes, element: element, named: name, line: line, column: location.column),
            let field = tag.field("renamingIdentifier"), field.value == identifier
        else {
            return plan.left(diagnostic, "\(version.contentsPath) changed since it was read")
        }
        guard plan.replace(field.nameRange, in: version.contentsPath, with: "elementID") else {
            return plan.left(diagnostic, "another repair changes the same element")
        }
        plan.repaired(
            diagnostic,
            "\(label) in \(versionName): renamingIdentifier=\"\(identifier)\" -> elementID=\"\(identifier)\"")
    }
}
