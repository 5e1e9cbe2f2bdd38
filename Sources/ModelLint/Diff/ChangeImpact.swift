import Foundation
import ModelLintModel

/// How Core Data treats one change (docs/core-data.md), from harmless to destructive.
package enum ChangeImpact: Int, Comparable, Sendable, CaseIterable {
    /// Not part of any hash: stores match, nothing migrates, the change applies to existing data as it is.
    case noMigration
    /// Inferred (lightweight) migration handles it.
    case lightweight
    /// Inferred migration runs, but whether the store opens, or keeps its values, depends on the data.
    case dataDependent
    /// Inference fails: a mapping model or a custom migration stage is needed.
    case customMigration
    /// Migration succeeds and data is dropped.
    case dataLoss

    package static func < (a: ChangeImpact, b: ChangeImpact) -> Bool { a.rawValue < b.rawValue }

    package var label: String {
        switch self {
        case .noMigration: return "no migration"
        case .lightweight: return "lightweight"
        case .dataDependent: return "lightweight, data-dependent"
        case .customMigration: return "needs custom migration"
        case .dataLoss: return "data loss"
        }
    }

    package var key: String {
        switch self {
        case .noMigration: return "no-migration"
        case .lightweight: return "lightweight"
        case .dataDependent: return "data-dependent"
        case .customMigration: return "custom-migration"
        case .dataLoss: return "data-loss"
        }
    }
}

/// One line of `modellint diff`: what changed about one element, and how Core Data treats it.
package struct ChangeEntry: Sendable, Equatable {
    package enum Kind: String, Sendable { case added, removed, changed }
    package var entity: String
    package var property: String?
    package var kind: Kind
    package var impact: ChangeImpact
    /// Each changed facet in words: `type Binary -> String`.
    package var details: [String]
    package var location: SourceLocation

    package init(
        entity: String, property: String? = nil, kind: Kind, impact: ChangeImpact, details: [String],
        location: SourceLocation
    ) {
        self.entity = entity
        self.property = property
        self.kind = kind
        self.impact = impact
        self.details = details
        self.location = location
    }
}

/// Every change of a diff, classified, grouped by entity in the newer version's order.
package enum ChangeClassifier {
    /// `showingHashes`: every changed entity's line also gives its version hash, old -> new (`diff --verbose`).
    package static func entries(of diff: ModelDiff, showingHashes: Bool = false) -> [ChangeEntry] {
        var entries: [ChangeEntry] = []
        let merged = Set(diff.hierarchyMerges.map { $0.0.name })
        for entity in diff.to.model.entities {
            if diff.addedEntities.contains(where: { $0.name == entity.name }) {
                entries.append(
                    ChangeEntry(
                        entity: entity.name, kind: .added, impact: .lightweight,
                        details: ["\(entity.properties.count) propert\(entity.properties.count == 1 ? "y" : "ies")"],
                        location: entity.location))
                continue
            }
            guard let pair = diff.pair(forNew: entity.name) else { continue }
            entries += byHash(
                entityEntries(pair, merged: merged.contains(diff.to.model.root(of: pair.new).name), diff: diff), pair,
                diff, showingHashes: showingHashes)
        }
        for entity in diff.removedEntities {
            entries.append(
                ChangeEntry(
                    entity: entity.name, kind: .removed, impact: .dataLoss,
                    details: ["its rows are dropped"], location: entity.location))
        }
        return entries
    }

    /// Core Data migrates an entity exactly when its version hash changed: with the hash unchanged every change
    /// of the entity is `no migration`, whatever the facets suggest; with it changed and nothing else showing
    /// why (a superentity's change is in the hash), the entity's own line says so.
    package static func byHash(_ entries: [ChangeEntry], _ pair: EntityPair, _ diff: ModelDiff, showingHashes: Bool)
        -> [ChangeEntry]
    {
        let old = diff.from.model.versionHashes.entities[pair.old.name]
        let new = diff.to.model.versionHashes.entities[pair.new.name]
        var entries = entries
        if old == new {
            for i in entries.indices where entries[i].impact > .noMigration {
                entries[i].impact = .noMigration
                entries[i].details.append("\(pair.new.name)'s version hash is unchanged: Core Data does not migrate it")
            }
        } else if !entries.contains(where: { $0.impact > .noMigration }) {
            let parent = pair.new.parentEntity.map { " (its superentity \($0)'s hash is part of it)" } ?? ""
            entries.insert(
                ChangeEntry(
                    entity: pair.new.name, kind: .changed, impact: .lightweight,
                    details: ["version hash changed\(parent)"], location: pair.new.location), at: 0)
        }
        guard showingHashes, !entries.isEmpty else { return entries }
        func base64(_ hash: [UInt8]?) -> String { hash.map { Data($0).base64EncodedString() } ?? "none" }
        let hash = old == new ? "hash \(base64(new)) (unchanged)" : "hash \(base64(old)) -> \(base64(new))"
        // On the entity's own line, else on its first property's: the hash is detail, never a change of its own
        // (`--verbose` must not change the count).
        if let i = entries.firstIndex(where: { $0.property == nil }) {
            entries[i].details.append(hash)
        } else {
            entries[0].details.append("\(pair.new.name)'s \(hash)")
        }
        return entries
    }

    package static func entityEntries(_ pair: EntityPair, merged: Bool, diff: ModelDiff) -> [ChangeEntry] {
        var entries: [ChangeEntry] = []
        var details: [String] = []
        var impact = ChangeImpact.noMigration
        func note(_ text: String, _ level: ChangeImpact) {
            details.append(text)
            impact = max(impact, level)
        }
        for facet in pair.facets {
            switch facet {
            case .name:
                note(
                    "renamed from \(pair.old.name) (renaming identifier \"\(pair.new.renamingIdentifier)\")",
                    .lightweight)
            case .parent:
                note(
                    "parent \(pair.old.parentEntity ?? "none") -> \(pair.new.parentEntity ?? "none")\(merged ? " (merges hierarchies)" : "")",
                    merged ? .customMigration : .lightweight)
            case .abstract:
                note(
                    pair.new.isAbstract ? "became abstract" : "became concrete",
                    pair.new.isAbstract ? .customMigration : .lightweight)
            case .hashModifier:
                note(
                    "versionHashModifier \(pair.old.versionHashModifier ?? "none") -> \(pair.new.versionHashModifier ?? "none")",
                    .lightweight)
            case .uniquenessConstraints: note("uniqueness constraints changed", .dataDependent)
            case .indexes: note("indexes changed", .noMigration)
            case .renamingIdentifier:
                note(
                    "renaming identifier \(pair.old.elementID ?? "none") -> \(pair.new.elementID ?? "none")",
                    .noMigration)
            case .className:
                note(
                    "class \(pair.old.representedClassName ?? "none") -> \(pair.new.representedClassName ?? "none")",
                    .noMigration)
            case .userInfo: note("user info changed", .noMigration)
            }
        }
        if !details.isEmpty {
            entries.append(
                ChangeEntry(
                    entity: pair.new.name, kind: .changed, impact: impact, details: details, location: pair.new.location
                ))
        }
        for property in pair.addedProperties {
            var level = ChangeImpact.lightweight
            var what = describe(property)
            switch property {
            case .attribute(let a) where !a.isOptional && !a.hasDefault && !a.isDerived:
                level = .dataDependent
                what += ", required without a default"
            case .relationship(let r) where r.isRequired:
                level = .dataDependent
                what += ", required"
            default: break
            }
            entries.append(
                ChangeEntry(
                    entity: pair.new.name, property: property.name, kind: .added, impact: level, details: [what],
                    location: property.location))
        }
        for property in pair.removedProperties {
            entries.append(
                ChangeEntry(
                    entity: pair.new.name, property: property.name, kind: .removed, impact: .dataLoss,
                    details: [describe(property) + ", its data is dropped"], location: property.location))
        }
        for property in pair.becameTransient {
            entries.append(
                ChangeEntry(
                    entity: pair.new.name, property: property.new.name, kind: .changed, impact: .dataLoss,
                    details: ["became transient, its data is dropped"], location: property.new.location))
        }
        for property in pair.kindChanged {
            entries.append(
                ChangeEntry(
                    entity: pair.new.name, property: property.new.name, kind: .changed, impact: .dataLoss,
                    details: ["\(property.old.kindName) -> \(property.new.kindName), the data is dropped"],
                    location: property.new.location))
        }
        for property in pair.matchedProperties where !property.facets.isEmpty {
            let (level, facetDetails) = classify(property)
            entries.append(
                ChangeEntry(
                    entity: pair.new.name, property: property.new.name, kind: .changed, impact: level,
                    details: facetDetails, location: property.new.location))
        }
        return entries
    }

    package static func describe(_ property: Property) -> String {
        switch property {
        case .attribute(let a): return "\(a.type.xmlValue) attribute\(a.isOptional ? ", optional" : "")"
        case .relationship(let r):
            return
                "\(r.isToMany ? "to-many" : "to-one") relationship to \(r.destinationEntity ?? "?")\(r.isOptional ? ", optional" : "")"
        }
    }

    package static func classify(_ pair: PropertyPair) -> (ChangeImpact, [String]) {
        var impact = ChangeImpact.noMigration
        var details: [String] = []
        func note(_ text: String, _ level: ChangeImpact) {
            details.append(text)
            impact = max(impact, level)
        }
        let a = pair.oldAttribute
        let b = pair.newAttribute
        let r = pair.oldRelationship
        let s = pair.newRelationship
        for facet in pair.facets {
            switch facet {
            case .name:
                note(
                    "renamed from \(pair.old.name) (renaming identifier \"\(pair.new.renamingIdentifier)\")",
                    .lightweight)
            case .type:
                guard let a, let b else { continue }
                let level: ChangeImpact =
                    a.type.widens(to: b.type)
                    ? .lightweight
                    : (a.type.isNumericOrBoolean && b.type.isNumericOrBoolean ? .dataDependent : .customMigration)
                note("type \(a.type.xmlValue) -> \(b.type.xmlValue)", level)
            case .optional:
                let nowOptional = b?.isOptional ?? s?.isOptional ?? false
                let hasDefault = b?.hasDefault ?? false
                note(
                    nowOptional
                        ? "became optional" : "became required\(b != nil && !hasDefault ? " without a default" : "")",
                    nowOptional || hasDefault ? .lightweight : .dataDependent)
            case .defaultValue:
                note(
                    "default \(a?.defaultValueString ?? a?.defaultDateTimeInterval ?? "none") -> \(b?.defaultValueString ?? b?.defaultDateTimeInterval ?? "none")",
                    .noMigration)
            case .externalStorage:
                let on = b?.allowsExternalBinaryDataStorage ?? false
                note(on ? "external storage on" : "external storage off", on ? .lightweight : .customMigration)
            case .transformer:
                note(
                    "transformer \(TransformerName.shown(a?.valueTransformerName)) -> \(TransformerName.shown(b?.valueTransformerName)) (old bytes decoded by the new one)",
                    .noMigration)
            case .customClass:
                note("custom class \(a?.customClassName ?? "none") -> \(b?.customClassName ?? "none")", .noMigration)
            case .derivation: note("derivation changed", .lightweight)
            case .preserveAfterDeletion: note("preserveAfterDeletion changed", .lightweight)
            case .cloudEncryption: note("allowsCloudEncryption changed", .noMigration)
            case .validation: note("validation changed", .noMigration)
            case .indexed:
                note(
                    "indexed \((a?.isIndexed ?? r?.isIndexed ?? false) ? "on" : "off") -> \((b?.isIndexed ?? s?.isIndexed ?? false) ? "on" : "off")",
                    .noMigration)
            case .spotlight:
                note(
                    "Spotlight indexing \((a?.spotlightIndexingEnabled ?? false) ? "on" : "off") -> \((b?.spotlightIndexingEnabled ?? false) ? "on" : "off")",
                    .noMigration)
            case .destination:
                note("destination \(r?.destinationEntity ?? "?") -> \(s?.destinationEntity ?? "?")", .dataLoss)
            case .inverse: note("inverse \(r?.inverseName ?? "none") -> \(s?.inverseName ?? "none")", .lightweight)
            case .toMany:
                let toMany = s?.isToMany ?? false
                note(toMany ? "to-one -> to-many" : "to-many -> to-one", toMany ? .lightweight : .customMigration)
            case .minCount:
                note(
                    "minCount \(r?.minCount ?? 0) -> \(s?.minCount ?? 0)",
                    (s?.smallestNonEmptyCount ?? 1) > (r?.smallestNonEmptyCount ?? 1) ? .dataDependent : .lightweight)
            case .maxCount:
                let tightened = (s?.effectiveMaxCount ?? Int.max) < (r?.effectiveMaxCount ?? Int.max)
                note("maxCount \(r?.maxCount ?? 0) -> \(s?.maxCount ?? 0)", tightened ? .dataDependent : .lightweight)
            case .ordered:
                let ordered = s?.isOrdered ?? false
                note(
                    ordered ? "became ordered" : "became unordered, the order is lost",
                    ordered ? .lightweight : .dataLoss)
            case .deleteRule:
                note("delete rule \(r?.deleteRule.xmlValue ?? "?") -> \(s?.deleteRule.xmlValue ?? "?")", .noMigration)
            case .renamingIdentifier:
                if !pair.facets.contains(.name) {
                    note(
                        "renaming identifier \(pair.old.elementID ?? "none") -> \(pair.new.elementID ?? "none")",
                        .noMigration)
                }
            case .hashModifier: note("versionHashModifier changed", .lightweight)
            case .userInfo: note("user info changed", .noMigration)
            }
        }
        return (impact, details)
    }
}
