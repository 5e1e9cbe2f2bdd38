import ModelLintModel

/// A place in a Swift file.
package struct SwiftLocation: Sendable, Equatable {
    package var file: String
    package var line: Int
    package var column: Int

    package var sourceLocation: SourceLocation { SourceLocation(file: file, line: line, column: column) }
}

/// A `@Model` type a schema lists, as resolved.
package struct SwiftModelType: Sendable, Equatable {
    /// `V2.Item`, or `Item` at file scope.
    package var qualifiedName: String
    /// The entity name: the unqualified class name.
    package var entityName: String
    package var location: SwiftLocation
    /// Declared outside every `VersionedSchema`: its shape is whatever the current source says.
    package var isLive: Bool
}

/// One `VersionedSchema` (or, for an app without one, its `@Model` classes as one version named "current"), built
/// into Core Data's model.
package struct SwiftSchema: Sendable {
    /// The schema type's name as written in its declaration (`LibraryV2`); "current" for an unversioned app.
    package var name: String
    package var qualifiedName: String
    package var location: SwiftLocation
    /// `Schema.Version(a, b, c)` as "a.b.c", when literal.
    package var versionIdentifier: String?
    /// The listed model types and the ones their relationships reach, listed ones first.
    package var models: [SwiftModelType]
    /// Where `models` names each listed type (qualified name -> the `X.self`), first mention.
    package var listing: [String: SwiftLocation] = [:]
    /// Names in `models` the scanner could not resolve to one `@Model` class.
    package var unresolvedModels: [String]
    package var model: Model
    /// Entities whose shape is not known for certain (docs/swiftdata.md "What it cannot know"): why, per entity name.
    package var unknownEntities: [String: String]
    /// Relationships whose destination is a type nested in another schema: (entity, property, destination's
    /// qualified name, where).
    package var crossSchemaRelationships: [(entity: String, property: String, destination: String, at: SwiftLocation)]

    /// Whether every entity's shape is known: only then are hashes claimed.
    package var isFullyKnown: Bool { unknownEntities.isEmpty && unresolvedModels.isEmpty }

    /// Major, minor, patch of `versionIdentifier`, for ordering schemas no plan orders.
    package var versionTuple: [Int] { versionIdentifier?.split(separator: ".").map { Int($0) ?? 0 } ?? [] }
}

/// One stage of a `SchemaMigrationPlan`.
package struct SwiftStage: Sendable, Equatable {
    package enum Kind: String, Sendable { case lightweight, custom }
    package var kind: Kind
    /// The schema types named by `fromVersion:` and `toVersion:` as resolved (qualified), or as written when they
    /// resolve to no schema.
    package var from: String?
    package var to: String?
    package var location: SwiftLocation
    /// `@Model` types a `.custom` stage's `willMigrate` and `didMigrate` name (qualified), read from the closure
    /// body or the function it names in the same module, with where each is named.
    package var willMigrateTypes: [(type: String, at: SwiftLocation)] = []
    package var didMigrateTypes: [(type: String, at: SwiftLocation)] = []

    package static func == (a: SwiftStage, b: SwiftStage) -> Bool {
        a.kind == b.kind && a.from == b.from && a.to == b.to && a.location == b.location
    }

    init(kind: Kind, from: String?, to: String?, location: SwiftLocation) {
        self.kind = kind
        self.from = from
        self.to = to
        self.location = location
    }
}

/// A `ModelContainer(…)`, `.modelContainer(…)` or `Schema(versionedSchema:)` in the app's code.
package struct SwiftContainer: Sendable, Equatable {
    package var location: SwiftLocation
    /// The plan named by `migrationPlan:` (qualified).
    package var plan: String?
    /// A schema named by `Schema(versionedSchema:)` (qualified).
    package var schema: String?
    /// `@Model` types it names (qualified).
    package var models: [String]
    /// `Schema(versionedSchema:)` on its own, not inside a container call.
    package var isSchemaOnly: Bool
}

/// The schema versions of one `SchemaMigrationPlan` (or of the schemas and models no plan lists): what a
/// `.xcdatamodeld` bundle is to a Core Data app.
package struct SwiftSchemaSet: Sendable {
    /// The plan type's name, else the module folder's.
    package var name: String
    /// The file that declares the plan (else the first schema's or model's), as displayed.
    package var path: String
    package var location: SwiftLocation
    /// The plan's qualified name, when there is a plan.
    package var plan: String?
    /// In order: the plan's `schemas`, else by `versionIdentifier`.
    package var schemas: [SwiftSchema]
    package var stages: [SwiftStage]
    /// Whether `stages` could be read whole (false: something the scanner does not understand is in it).
    package var stagesReadable: Bool
    /// Names in the plan's `schemas` that resolve to no `VersionedSchema`.
    package var unresolvedSchemas: [String]
    /// `VersionedSchema` types of the same files that the plan does not list.
    package var unlisted: [SwiftSchema]
    /// The app's containers judged against this set.
    package var containers: [SwiftContainer]
    /// The unversioned app's one version: editing it in place is how such an app evolves.
    package var isUnversioned: Bool
    /// `@Model` types the app's code fetches, queries or inserts (`FetchDescriptor<X>`, `@Query var x: [X]`,
    /// `.insert(X(…))`), qualified, with where; read when the module holds exactly one set.
    package var usedModelTypes: [(type: String, at: SwiftLocation)] = []
    /// The store names the module's `ModelConfiguration`s give as literals (`ModelConfiguration("Library")`, a
    /// `url:` ending in `Library.sqlite`): a bundle of that name opens the same store.
    package var storeNames: [String] = []

    package var current: SwiftSchema? { schemas.last }
}
