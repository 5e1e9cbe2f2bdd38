/// Most entities repeat unchanged from one version to the next (WooCommerce: 6,557 of 6,709 adjacent
/// entity pairs). An `EntityRule` finds the same about equal neighborhoods, so each distinct neighborhood
/// is judged once per bundle and its findings are moved to the versions that repeat it, element by element.
struct RepeatedEntities: Sendable {
    struct Origin: Sendable {
        var version: Int
        var entity: Int
    }

    /// Per version, per entity: where the same neighborhood was first seen, when that was earlier.
    let origins: [[Origin?]]

    init(_ models: [Model]) {
        // Keys on all cores; only matching them up runs in order.
        let keys = concurrentMap(models) { model -> [Int]? in
            // Two entities of one name make name lookups ambiguous: judge such a version whole.
            guard model.entityIndexByName.count == model.entities.count else { return nil }
            return model.entities.indices.map { model.neighborhoodKey(ofEntityAt: $0) }
        }
        var firstSeen: [Int: Origin] = [:]
        origins = zip(models, keys).enumerated().map { v, versionKeys in
            let (model, keys) = versionKeys
            guard let keys else { return model.entities.map { _ in nil } }
            return keys.enumerated().map { e, key in
                if let origin = firstSeen[key] { return origin }
                firstSeen[key] = Origin(version: v, entity: e)
                return nil
            }
        }
    }

    /// Findings about an entity of `origin`'s version, placed on the same elements of `entity`, or nil when
    /// one of them points outside the neighborhood (then the entity is judged afresh).
    static func move(
        _ findings: [Finding], from origin: Entity, in originModel: Model, to entity: Entity, in model: Model
    ) -> [Finding]? {
        if findings.isEmpty { return [] }
        let from = originModel.neighborhood(of: origin).flatMap(\.elementLocations)
        let to = model.neighborhood(of: entity).flatMap(\.elementLocations)
        guard from.count == to.count else { return nil }
        var moved: [Finding] = []
        for finding in findings {
            guard finding.location.file == from.first?.file, let i = from.position(of: finding.location) else { return nil }
            var copy = finding
            copy.location = to[i]
            moved.append(copy)
        }
        return moved
    }
}
