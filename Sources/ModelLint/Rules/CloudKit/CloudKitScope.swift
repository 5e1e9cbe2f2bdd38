import ModelLintModel

/// Which entities the CloudKit rules check, and what switched them on (every message says so, so a
/// user with a leftover template flag knows how to turn them off).
package struct CloudKitScope {
    /// nil: every entity.
    package var entities: Set<String>?
    package var reason: String

    package static func of(_ model: Model, context: RuleContext) -> CloudKitScope? {
        if let forced = context.cloudKitOverride {
            return forced
                ? CloudKitScope(entities: nil, reason: "\"cloudKit\": true for this bundle in .modellint.json") : nil
        }
        if model.usedWithCloudKit {
            return CloudKitScope(
                entities: nil,
                reason:
                    "usedWithCloudKit=\"YES\" on the model; if it is a template leftover, set \"cloudKit\": false for this bundle in .modellint.json"
            )
        }
        let synced = model.configurations.filter(\.usedWithCloudKit)
        guard !synced.isEmpty else { return nil }
        let names = synced.map(\.name).joined(separator: ", ")
        return CloudKitScope(
            entities: Set(synced.flatMap { $0.members.map(\.entity) }),
            reason:
                "usedWithCloudKit=\"YES\" on configuration \(names); if it is a leftover, set \"cloudKit\": false for this bundle in .modellint.json"
        )
    }

    package func includes(_ entity: Entity) -> Bool { entities?.contains(entity.name) ?? true }

    /// The entities of the model this scope checks.
    package func entities(of model: Model) -> [Entity] { model.entities.filter(includes) }

    /// Every problem `judge` sees on an entity in scope, as findings that say why Core Data refuses the store
    /// and what switched the CloudKit rules on.
    package static func findings(
        in model: Model, context: RuleContext,
        _ judge: (Entity) -> [(problem: String, location: SourceLocation, property: String?)]
    ) -> [Finding] {
        guard let scope = of(model, context: context) else { return [] }
        return scope.entities(of: model).flatMap { entity in
            judge(entity).map { problem, location, property in
                Finding(
                    "\(problem): \(refusal) (CloudKit rules are on: \(scope.reason))", at: location,
                    entity: entity.name, property: property)
            }
        }
    }

    package static let refusal = "Core Data refuses to load a CloudKit-mirrored store with it (134060)"
    package static let additiveOnly =
        "a CloudKit production schema is additive only (\"CloudKit integration forbids renaming\")"
    package init(entities: Set<String>? = nil, reason: String) {
        self.entities = entities
        self.reason = reason
    }
}
