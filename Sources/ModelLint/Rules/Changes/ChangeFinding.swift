extension Finding {
    /// A finding about an element of a compared pair, identified by renaming identifiers so the same
    /// problem is recognised on every pair it appears in.
    static func change(
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
    var newerFileNote: String { "(it is absent from \(to.name), \(to.contentsPath))" }
}

extension PropertyPair {
    /// `Entity.property` with the newer names, noting a rename.
    var label: String {
        old.name == new.name ? "\(newOwner).\(new.name)" : "\(newOwner).\(new.name) (was \(old.name))"
    }
}

extension Relationship {
    /// rules.md: no `optional="YES"`, and for a to-many also `minCount >= 1`.
    var isRequired: Bool { !isOptional && (!isToMany || (minCount ?? 0) >= 1) }
    /// The largest number of destination objects allowed (nil: unbounded).
    var effectiveMaxCount: Int? { isToMany ? ((maxCount ?? 0) > 0 ? maxCount : nil) : 1 }
    /// The smallest non-empty count allowed.
    var smallestNonEmptyCount: Int { max(minCount ?? 0, 1) }
}

extension AttributeType {
    /// rules.md: Integer 16 -> 32/64, Integer 32 -> 64, Float -> Double, Boolean -> any integer.
    func widens(to other: AttributeType) -> Bool {
        switch (self, other) {
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64), (.float, .double): return true
        case (.boolean, let target): return target.isInteger
        default: return false
        }
    }
}
