import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintGather

/// Most entities repeat unchanged from one version to the next (WooCommerce: 6,557 of 6,709 adjacent
/// entity pairs). An `EntityRule` finds the same about equal neighborhoods, so each distinct neighborhood
/// is judged once per bundle and its findings are moved to the versions that repeat it, element by element.
package struct RepeatedEntities: Sendable {
    /// What a rule reads of an entity, and so what must repeat for its findings to repeat.
    package enum Scope: Sendable {
        /// `Model.neighborhood(of:)`, and the model's CloudKit settings.
        case neighborhood
        /// The entity's own elements (`EntityRule.readsOnlyItsEntity`).
        case entity
    }

    /// Per version, per entity: where the same neighborhood (or entity) was first seen, when that was earlier.
    package let origins: [[EarlierOccurrence?]]

    package init(_ models: [Model], scope: Scope = .neighborhood) {
        // Keys on all cores; only matching them up runs in order.
        let keys = concurrentMap(models) { model -> [Int?] in
            // Two entities of one name make name lookups ambiguous: judge such a version whole.
            guard model.entityIndexByName.count == model.entities.count else { return model.entities.map { _ in nil } }
            switch scope {
            case .neighborhood: return model.entities.indices.map { model.neighborhoodKey(ofEntityAt: $0) }
            case .entity: return model.keys.content
            }
        }
        origins = EarlierOccurrence.find(keys)
    }

    /// Findings about an entity of `origin`'s version, placed on the same elements of `entity`, or nil when
    /// one of them points outside the scope (then the entity is judged afresh).
    package static func move(
        _ findings: [Finding], from origin: Entity, in originModel: Model, to entity: Entity, in model: Model,
        scope: Scope = .neighborhood
    ) -> [Finding]? {
        if findings.isEmpty { return [] }
        let from: [SourceLocation]
        let to: [SourceLocation]
        switch scope {
        case .neighborhood:
            from = originModel.neighborhood(of: origin).flatMap(\.elementLocations)
            to = model.neighborhood(of: entity).flatMap(\.elementLocations)
        case .entity:
            from = origin.elementLocations
            to = entity.elementLocations
        }
        guard from.count == to.count else { return nil }
        var moved: [Finding] = []
        for finding in findings {
            guard finding.location.sourceFile == from.first?.sourceFile, let i = from.position(of: finding.location)
            else {
                return nil
            }
            var copy = finding
            copy.location = to[i]
            moved.append(copy)
        }
        return moved
    }
}

/// Where an item was first seen: in which group (a version, or a compared pair) and at which place in it (an
/// entity, or a matched entity pair).
package struct EarlierOccurrence: Sendable {
    package var group: Int
    package var item: Int

    /// For every item, in group order then item order, the first earlier item with the same key; nil for the first
    /// of each key and for items without a key (those are always worked out).
    package static func find<Key: Hashable>(_ keys: [[Key?]]) -> [[EarlierOccurrence?]] {
        var firstSeen: [Key: EarlierOccurrence] = [:]
        return keys.enumerated().map { group, items in
            items.enumerated().map { item, key in
                guard let key else { return nil }
                if let earlier = firstSeen[key] { return earlier }
                firstSeen[key] = EarlierOccurrence(group: group, item: item)
                return nil
            }
        }
    }
    package init(group: Int, item: Int) {
        self.group = group
        self.item = item
    }
}
