import ModelLintModel
import ModelLintDiff

extension Finding {
    /// A finding about an element of a compared pair, identified by renaming identifiers so the same
    /// problem is recognised on every pair it appears in.
    package static func change(
        _ message: String, entity: Entity, property: Property? = nil, at location: SourceLocation? = nil, severity: Severity? = nil
    ) -> Finding {
        var finding = Finding(
            message, at: location ?? property?.location ?? entity.location, entity: entity.name, property: property?.name,
            severity: severity)
        finding.identity = entity.renamingIdentifier + "/" + (property?.renamingIdentifier ?? "")
        return finding
    }
}

extension ModelDiff {
    /// For removals, whose location is in the older file: name the newer file too.
    package var newerFileNote: String { "(it is absent from \(to.name), \(to.contentsPath))" }
}

extension PropertyPair {
    /// `Entity.property` with the newer names, noting a rename.
    package var label: String {
        old.name == new.name ? "\(newOwner).\(new.name)" : "\(newOwner).\(new.name) (was \(old.name))"
    }
}
